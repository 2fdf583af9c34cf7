import ArtpipeSupport
import Crypto
import Foundation

/// The requests ``S3Client`` makes, each with how its answer is read.
extension S3Client {
    func createBucketCall() -> S3Call<Void> {
        // Outside us-east-1 the region must be named; there it must not be.
        var body: [UInt8] = []
        if location.region != "us-east-1" {
            body = Array(
                ("<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><LocationConstraint>"
                    + HTMLText.escaped(location.region) + "</LocationConstraint></CreateBucketConfiguration>").utf8)
        }
        return S3Call(method: "PUT", key: nil, headers: [("content-length", String(body.count))], body: body) {
            response in
            if response.errorCode == "BucketAlreadyOwnedByYou" { return }
            try response.expect(200, 200)
        }
    }

    /// - Parameter precondition: `If-Match` with an ETag, or `If-None-Match: *`; the store answers
    ///   412 when it does not hold.
    func putCall(
        _ key: String, body: [UInt8], contentType: String, cacheControl: String?, metadata: [String: String],
        precondition: (name: String, value: String)? = nil
    ) -> S3Call<String> {
        var headers = [("content-type", contentType), ("content-length", String(body.count))]
        if let cacheControl { headers.append(("cache-control", cacheControl)) }
        if let precondition { headers.append((precondition.name, precondition.value)) }
        for (name, value) in metadata.sorted(by: { $0.key < $1.key }) { headers.append(("x-amz-meta-\(name)", value)) }
        return S3Call(method: "PUT", key: key, headers: headers, body: body) { response in
            try response.expect(200, 200)
            return response.etag ?? ""
        }
    }

    func getCall(_ key: String) -> S3Call<[UInt8]?> {
        let versioned = getVersionedCall(key)
        return S3Call(method: "GET", key: key) { try versioned.interpret($0)?.body }
    }

    /// The object's bytes with the ETag of those bytes.
    func getVersionedCall(_ key: String) -> S3Call<(body: [UInt8], etag: String)?> {
        S3Call(method: "GET", key: key) { response in
            if response.status == 404 && response.errorCode != "NoSuchBucket" { return nil }
            try response.expect(200, 200)
            return (response.body, response.etag ?? "")
        }
    }

    func headCall(_ key: String) -> S3Call<S3ObjectInfo?> {
        S3Call(method: "HEAD", key: key) { response in
            if response.status == 404 { return nil }
            try response.expect(200, 200)
            var metadata: [String: String] = [:]
            for (name, value) in response.headers where name.lowercased().hasPrefix("x-amz-meta-") {
                metadata[String(name.lowercased().dropFirst("x-amz-meta-".count))] = value
            }
            return S3ObjectInfo(
                key: key, size: Int(response.headers.first(name: "content-length") ?? "") ?? 0,
                etag: response.etag ?? "", lastModified: response.lastModified, metadata: metadata,
                contentType: response.headers.first(name: "content-type"),
                cacheControl: response.headers.first(name: "cache-control"))
        }
    }

    /// Copies the object onto itself with `used` as metadata, which renews its `Last-Modified`
    /// (the only way S3 has); false when there is no such object. Its bytes and ETag stay.
    func touchCall(_ key: String, contentType: String, cacheControl: String?, used: Date) -> S3Call<Bool> {
        let source = "/\(location.bucket)/\(S3Encoding.path(location.prefix + key))"
        var headers = [
            ("content-type", contentType), ("content-length", "0"), ("x-amz-copy-source", source),
            ("x-amz-metadata-directive", "REPLACE"),
            // A copy onto itself must change something: the time it was used does.
            ("x-amz-meta-used", String(Int(used.timeIntervalSince1970))),
        ]
        if let cacheControl { headers.append(("cache-control", cacheControl)) }
        return S3Call(method: "PUT", key: key, headers: headers) { response in
            if response.status == 404 && response.errorCode == "NoSuchKey" { return false }
            try response.expect(200, 200)
            return true
        }
    }

    func listCall(prefix: String, directOnly: Bool, continuationToken: String?, maxKeys: Int) -> S3Call<S3ListPage> {
        var query = [("list-type", "2"), ("prefix", location.prefix + prefix), ("max-keys", String(maxKeys))]
        if directOnly { query.append(("delimiter", "/")) }
        if let continuationToken { query.append(("continuation-token", continuationToken)) }
        let prefix = location.prefix
        return S3Call(method: "GET", key: nil, query: query) { response in
            try response.expect(200, 200)
            var page = try S3ListResult.parse(response.body, request: response.request)
            for index in page.objects.indices where page.objects[index].key.hasPrefix(prefix) {
                page.objects[index].key.removeFirst(prefix.count)
            }
            return page
        }
    }

    func deleteCall(_ keys: [String]) -> S3Call<[S3DeleteFailure]> {
        precondition(keys.count <= 1_000, "DeleteObjects takes at most 1,000 keys")
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Delete><Quiet>true</Quiet>"
        for key in keys { xml += "<Object><Key>\(HTMLText.escaped(location.prefix + key))</Key></Object>" }
        xml += "</Delete>"
        let body = Array(xml.utf8)
        let md5 = Data(Insecure.MD5.hash(data: body)).base64EncodedString()
        let prefix = location.prefix
        return S3Call(
            method: "POST", key: nil, query: [("delete", "")],
            headers: [
                ("content-type", "application/xml"), ("content-length", String(body.count)), ("content-md5", md5),
            ],
            body: body
        ) { response in
            try response.expect(200, 200)
            return try S3ListResult.deleteFailures(response.body, request: response.request).map { failure in
                var failure = failure
                if failure.key.hasPrefix(prefix) { failure.key.removeFirst(prefix.count) }
                return failure
            }
        }
    }
}
