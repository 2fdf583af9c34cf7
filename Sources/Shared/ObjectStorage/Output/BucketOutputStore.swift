import Foundation

/// Published files as objects in an S3-compatible bucket (`--out s3://BUCKET/PREFIX`): each
/// written by one PUT, which replaces an object whole, with the `Content-Type` and
/// `Cache-Control` a bucket serving the gallery needs.
///
/// A failure of the store is thrown as it comes (``ObjectStoreError/isTransient`` says whether
/// it may pass): callers retry the page or the publish, and nothing counts as written before
/// the store said so.
package final class BucketOutputStore: OutputStore {
    package let client: S3Client

    package init(client: S3Client) {
        self.client = client
    }

    package var description: String { client.location.description }

    package func address(of path: String) -> String {
        "s3://\(client.location.bucket)/\(client.location.prefix)\(path)"
    }

    package func read(_ path: String) throws -> [UInt8]? {
        try client.blocking.get(path)
    }

    package func version(of path: String) throws -> OutputVersion? {
        try client.blocking.head(path).map { OutputVersion($0.etag) }
    }

    package func versions(in folder: String) throws -> [String: OutputVersion] {
        var versions: [String: OutputVersion] = [:]
        try client.blocking.listAll(prefix: folder.isEmpty ? "" : "\(folder)/", directOnly: true) { object in
            versions[object.key] = OutputVersion(object.etag)
        }
        return versions
    }

    /// A PUT is durable once answered: `durable` changes nothing here.
    @discardableResult
    package func write(_ bytes: [UInt8], to path: String, durable: Bool) throws -> OutputVersion {
        OutputVersion(
            try client.blocking.put(
                path, body: bytes, contentType: OutputMediaType.contentType(of: path),
                cacheControl: OutputMediaType.cacheControl(of: path)))
    }

    package func remove(_ path: String) throws {
        let failures = try client.blocking.delete([path])
        if let failure = failures.first {
            throw ObjectStoreError.status(
                code: 200, error: nil, message: failure.reason, request: "DELETE \(client.location.bucket)/\(path)")
        }
    }

    /// Whether the object is there: a HEAD. An object's time cannot be set without writing it
    /// again, and `prune` does not work on buckets yet, so nothing is marked.
    package func markUsed(_ path: String) throws -> Bool {
        try client.blocking.head(path) != nil
    }
}
