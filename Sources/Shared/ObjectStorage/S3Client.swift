import ArtpipeSupport
import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// The requests the workers make of an S3-compatible store: PUT, GET, HEAD, ListObjectsV2 and
/// DeleteObjects, signed with Signature Version 4, each one attempt (callers decide on retries
/// through ``ObjectStoreError/isTransient``).
///
/// Keys are relative to the location's prefix, in what it is given and in what it lists.
package final class S3Client: Sendable {
    let location: S3Location
    private let signer: S3Signer
    private var http: HTTPClient { Self.http }
    private let timeout: TimeAmount
    /// Bodies larger than this are refused rather than held (an answer's, not a PUT's).
    private let maxResponseBytes: Int
    private let logger: Logger

    package init(
        location: S3Location, credentials: S3Credentials, timeout: Duration = .seconds(30),
        maxResponseBytes: Int = 64 << 20, logger: Logger
    ) {
        self.location = location
        self.signer = S3Signer(credentials: credentials, region: location.region)
        self.timeout = .nanoseconds(Int64(timeout.nanoseconds))
        self.maxResponseBytes = maxResponseBytes
        self.logger = logger
    }

    /// One connection pool for every client of the process, never shut down: a client can
    /// then be dropped on any path, an error's included, with nothing left to close. A
    /// redirect is not followed (the signature would not match the new address); each
    /// request has its own deadline besides these.
    private static let http: HTTPClient = {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(30))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// Nothing to release: the connections are the process's (``http``). Kept so callers
    /// say where they are done with the store.
    package func shutdown() async throws {}

    /// Creates the bucket; one that exists and is ours already is not an error.
    package func createBucket() async throws {
        // Outside us-east-1 the region must be named; there it must not be.
        var body: [UInt8] = []
        if location.region != "us-east-1" {
            body = Array(
                ("<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><LocationConstraint>"
                    + HTMLText.escaped(location.region) + "</LocationConstraint></CreateBucketConfiguration>").utf8)
        }
        let response = try await send(
            "PUT", key: nil, headers: [("content-length", String(body.count))], body: body)
        if response.errorCode == "BucketAlreadyOwnedByYou" { return }
        try response.expect(200, 200)
    }

    /// Checks, at start-up, that the bucket exists and these keys may list it: one request. A
    /// refusal (a missing bucket, a wrong key or secret, no permission) becomes a configuration
    /// error naming the bucket and the endpoint; a store that is down for the moment throws its
    /// transient error, to be tried again.
    func checkAccess() async throws {
        do {
            _ = try await list(prefix: "", maxKeys: 1)
        } catch let error as ObjectStoreError where !error.isTransient {
            throw ObjectStoreError.configuration("cannot use \(location.description): \(error)")
        }
    }

    /// Writes `body` as `key` whole (a PUT replaces an object atomically). Returns its ETag.
    @discardableResult
    package func put(
        _ key: String, body: [UInt8], contentType: String, cacheControl: String? = nil, metadata: [String: String] = [:]
    ) async throws -> String {
        var headers = [("content-type", contentType), ("content-length", String(body.count))]
        if let cacheControl { headers.append(("cache-control", cacheControl)) }
        for (name, value) in metadata.sorted(by: { $0.key < $1.key }) { headers.append(("x-amz-meta-\(name)", value)) }
        let response = try await send("PUT", key: key, headers: headers, body: body)
        try response.expect(200, 200)
        return response.etag ?? ""
    }

    /// The object's bytes; nil when there is no such key.
    package func get(_ key: String) async throws -> [UInt8]? {
        let response = try await send("GET", key: key)
        if response.status == 404 && response.errorCode != "NoSuchBucket" { return nil }
        try response.expect(200, 200)
        return response.body
    }

    /// What the store says of `key`; nil when there is no such key. Reads no body.
    package func head(_ key: String) async throws -> S3ObjectInfo? {
        let response = try await send("HEAD", key: key)
        if response.status == 404 { return nil }
        try response.expect(200, 200)
        var metadata: [String: String] = [:]
        for (name, value) in response.headers where name.lowercased().hasPrefix("x-amz-meta-") {
            metadata[String(name.lowercased().dropFirst("x-amz-meta-".count))] = value
        }
        return S3ObjectInfo(
            key: key, size: Int(response.headers.first(name: "content-length") ?? "") ?? 0, etag: response.etag ?? "",
            lastModified: nil, metadata: metadata, contentType: response.headers.first(name: "content-type"),
            cacheControl: response.headers.first(name: "cache-control"))
    }

    /// One page (up to `maxKeys`) of the keys under `prefix`, in key order. With
    /// `directOnly`, keys below a further `/` are left out.
    func list(prefix: String, directOnly: Bool = false, continuationToken: String? = nil, maxKeys: Int = 1_000)
        async throws -> S3ListPage
    {
        var query = [("list-type", "2"), ("prefix", location.prefix + prefix), ("max-keys", String(maxKeys))]
        if directOnly { query.append(("delimiter", "/")) }
        if let continuationToken { query.append(("continuation-token", continuationToken)) }
        let response = try await send("GET", key: nil, query: query)
        try response.expect(200, 200)
        var page = try S3ListResult.parse(response.body, request: response.request)
        for index in page.objects.indices where page.objects[index].key.hasPrefix(location.prefix) {
            page.objects[index].key.removeFirst(location.prefix.count)
        }
        return page
    }

    /// Every key under `prefix`, page by page.
    package func listAll(prefix: String, directOnly: Bool = false, visit: (S3ObjectInfo) throws -> Void) async throws {
        var token: String?
        repeat {
            let page = try await list(prefix: prefix, directOnly: directOnly, continuationToken: token)
            for object in page.objects { try visit(object) }
            token = page.continuationToken
        } while token != nil
    }

    /// Deletes up to 1,000 keys in one request. Deleting a key that does not exist succeeds.
    /// Returns the keys the store could not delete, with its reason.
    package func delete(_ keys: [String]) async throws -> [(key: String, reason: String)] {
        guard !keys.isEmpty else { return [] }
        precondition(keys.count <= 1_000, "DeleteObjects takes at most 1,000 keys")
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Delete><Quiet>true</Quiet>"
        for key in keys { xml += "<Object><Key>\(HTMLText.escaped(location.prefix + key))</Key></Object>" }
        xml += "</Delete>"
        let body = Array(xml.utf8)
        let md5 = Data(Insecure.MD5.hash(data: body)).base64EncodedString()
        let response = try await send(
            "POST", key: nil, query: [("delete", "")],
            headers: [
                ("content-type", "application/xml"), ("content-length", String(body.count)), ("content-md5", md5),
            ],
            body: body)
        try response.expect(200, 200)
        return try S3ListResult.deleteFailures(response.body, request: response.request).map { failure in
            (
                failure.key.hasPrefix(location.prefix)
                    ? String(failure.key.dropFirst(location.prefix.count)) : failure.key,
                failure.reason
            )
        }
    }

    private func send(
        _ method: String, key: String?, query: [(String, String)] = [], headers: [(String, String)] = [],
        body: [UInt8] = []
    ) async throws -> S3Response {
        let fullKey = key.map { location.prefix + $0 }
        let path = location.path(of: fullKey)
        let queryText = S3Encoding.canonicalQuery(query)
        let description = "\(method) \(location.bucket)/\(fullKey ?? "")"
        var request = HTTPClientRequest(
            url:
                "\(location.endpoint.scheme!)://\(location.hostHeader)\(path)\(queryText.isEmpty ? "" : "?" + queryText)"
        )
        request.method = HTTPMethod(rawValue: method)
        let own = [("host", location.hostHeader)] + headers
        let signed = signer.signedHeaders(
            method: method, path: path, query: query, headers: own, payloadSHA256: S3Signer.payloadHash(body),
            date: Date())
        for (name, value) in own + signed where name != "content-length" {
            request.headers.add(name: name, value: value)
        }
        if method == "PUT" || method == "POST" { request.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await http.execute(request, timeout: timeout)
            let bytes = method == "HEAD" ? ByteBuffer() : try await response.body.collect(upTo: maxResponseBytes)
            return S3Response(
                request: description, status: Int(response.status.code), headers: response.headers,
                body: Array(buffer: bytes))
        } catch let error as ObjectStoreError {
            throw error
        } catch {
            throw ObjectStoreError.transport("\(error)", request: description)
        }
    }
}
