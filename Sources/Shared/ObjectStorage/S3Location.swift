import Foundation

/// Where published files go in an object store: a bucket and a key prefix, at an endpoint.
package struct S3Location: Sendable, Equatable {
    /// The store's base URL: `https://s3.<region>.amazonaws.com` by default, or an
    /// S3-compatible store's (`--s3-endpoint`, `AWS_ENDPOINT_URL`).
    var endpoint: URL
    var bucket: String
    /// Prepended to every key; empty or ending in `/`.
    var prefix: String
    var region: String
    /// `endpoint/bucket/key` rather than `bucket.endpoint/key`: what most S3-compatible stores want.
    var pathStyle: Bool

    /// Reads `s3://BUCKET[/PREFIX]`. Nil when `text` is not an `s3://` address.
    package init?(
        _ text: String, endpoint: String?, region: String?, pathStyle: Bool? = nil
    ) throws {
        guard text.hasPrefix("s3://") else { return nil }
        let rest = text.dropFirst("s3://".count)
        let bucket = String(rest.prefix { $0 != "/" })
        guard Self.isBucketName(bucket) else {
            throw ObjectStoreError.configuration(
                "'\(bucket)' in \(text) is not a bucket name (3–63 of a–z, 0–9, '.', '-')")
        }
        var prefix = String(rest.dropFirst(bucket.count).drop { $0 == "/" })
        if !prefix.isEmpty && !prefix.hasSuffix("/") { prefix += "/" }
        let region = region.flatMap { $0.isEmpty ? nil : $0 } ?? "us-east-1"
        let endpointText = endpoint.flatMap { $0.isEmpty ? nil : $0 } ?? "https://s3.\(region).amazonaws.com"
        guard let url = URL(string: endpointText), let scheme = url.scheme, ["http", "https"].contains(scheme),
            url.host != nil, url.path.isEmpty || url.path == "/", url.query == nil
        else {
            throw ObjectStoreError.configuration(
                "the S3 endpoint '\(endpointText)' is not an http(s) URL without a path")
        }
        self.endpoint = url
        self.bucket = bucket
        self.prefix = prefix
        self.region = region
        // Virtual-hosted addressing needs DNS names per bucket: AWS's default, rarely a local store's.
        self.pathStyle = pathStyle ?? (endpoint != nil || bucket.contains("."))
    }

    /// The host and port requests go to, as the `Host` header carries them.
    var hostHeader: String {
        let host = pathStyle ? endpoint.host! : "\(bucket).\(endpoint.host!)"
        if let port = endpoint.port, !(endpoint.scheme == "http" && port == 80),
            !(endpoint.scheme == "https" && port == 443)
        {
            return "\(host):\(port)"
        }
        return host
    }

    /// The encoded path of `key` (the prefix already in it), or of the bucket when nil.
    func path(of key: String?) -> String {
        let bucketPath = pathStyle ? "/\(S3Encoding.component(bucket))" : ""
        guard let key else { return bucketPath.isEmpty ? "/" : bucketPath }
        return "\(bucketPath)/\(S3Encoding.path(key))"
    }

    /// `s3://bucket/prefix` at the endpoint, for messages.
    var description: String {
        "s3://\(bucket)/\(prefix) at \(endpoint.absoluteString)"
    }

    static func isBucketName(_ name: String) -> Bool {
        (3...63).contains(name.count)
            && name.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-" }
    }
}
