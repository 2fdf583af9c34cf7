import Foundation

/// What a HEAD or a listing says of one object.
package struct S3ObjectInfo: Sendable, Equatable {
    /// The key within the bucket, prefix included.
    package var key: String
    package var size: Int
    /// Without quotes.
    package var etag: String
    package var lastModified: Date?
    /// `x-amz-meta-*` values (HEAD only), by name without the prefix.
    package var metadata: [String: String] = [:]
    /// As the object was written (HEAD only).
    package var contentType: String?
    package var cacheControl: String?
}

/// One page of a listing.
package struct S3ListPage: Sendable {
    package var objects: [S3ObjectInfo]
    /// Where the next page starts; nil on the last.
    package var continuationToken: String?
}
