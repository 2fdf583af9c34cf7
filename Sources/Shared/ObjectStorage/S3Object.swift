import Foundation

/// What a HEAD or a listing says of one object.
package struct S3ObjectInfo: Sendable, Equatable {
    /// The key within the bucket, prefix included.
    package var key: String
    var size: Int
    /// Without quotes.
    var etag: String
    var lastModified: Date?
    /// `x-amz-meta-*` values (HEAD only), by name without the prefix.
    var metadata: [String: String] = [:]
    /// As the object was written (HEAD only).
    package var contentType: String?
    package var cacheControl: String?
}

/// One page of a listing.
package struct S3ListPage: Sendable {
    var objects: [S3ObjectInfo]
    /// Where the next page starts; nil on the last.
    var continuationToken: String?
}
