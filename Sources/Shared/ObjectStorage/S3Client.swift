import ArtpipeSupport
import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// The requests the workers make of an S3-compatible store: PUT, GET, HEAD, ListObjectsV2 and
/// DeleteObjects, signed with Signature Version 4, each one attempt (callers decide on retries
/// through ``ObjectStoreError/failureClass``), but for one more when the credentials expired
/// and read again differ.
///
/// Keys are relative to the location's prefix, in what it is given and in what it lists.
package final class S3Client: Sendable {
    let location: S3Location
    private let credentials: S3CredentialSource
    private var http: HTTPClient { Self.http }
    private let timeout: TimeAmount
    /// Bodies larger than this are refused rather than held (an answer's, not a PUT's).
    private let maxResponseBytes: Int
    private let logger: Logger

    package init(
        location: S3Location, credentials: S3CredentialSource, timeout: Duration = .seconds(30),
        maxResponseBytes: Int = 64 << 20, logger: Logger
    ) {
        self.location = location
        self.credentials = credentials
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

    /// Creates the bucket; one that exists and is ours already is not an error.
    package func createBucket() async throws {
        try await run(createBucketCall())
    }

    /// Checks, at start-up, that the bucket exists and these keys may list it: one request. A
    /// refusal (a missing bucket, a wrong key or secret, no permission) becomes a configuration
    /// error naming the bucket and the endpoint; a store that is down for the moment throws its
    /// transient error, to be tried again.
    func checkAccess() async throws {
        do {
            _ = try await list(prefix: "", maxKeys: 1)
        } catch let error as ObjectStoreError where error.failureClass.isForGood {
            throw ObjectStoreError.configuration("cannot use \(location.description): \(error)")
        }
    }

    /// Writes `body` as `key` whole (a PUT replaces an object atomically). Returns its ETag.
    @discardableResult
    package func put(
        _ key: String, body: [UInt8], contentType: String, cacheControl: String? = nil, metadata: [String: String] = [:]
    ) async throws -> String {
        try await run(
            putCall(key, body: body, contentType: contentType, cacheControl: cacheControl, metadata: metadata))
    }

    /// The object's bytes; nil when there is no such key.
    package func get(_ key: String) async throws -> [UInt8]? {
        try await run(getCall(key))
    }

    /// What the store says of `key`; nil when there is no such key. Reads no body.
    package func head(_ key: String) async throws -> S3ObjectInfo? {
        try await run(headCall(key))
    }

    /// One page (up to `maxKeys`) of the keys under `prefix`, in key order. With
    /// `directOnly`, keys below a further `/` are left out.
    func list(prefix: String, directOnly: Bool = false, continuationToken: String? = nil, maxKeys: Int = 1_000)
        async throws -> S3ListPage
    {
        try await run(
            listCall(prefix: prefix, directOnly: directOnly, continuationToken: continuationToken, maxKeys: maxKeys))
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
    package func delete(_ keys: [String]) async throws -> [S3DeleteFailure] {
        guard !keys.isEmpty else { return [] }
        return try await run(deleteCall(keys))
    }

    func run<Result>(_ call: S3Call<Result>) async throws -> Result {
        do {
            return try call.interpret(try await send(call).get())
        } catch let error as ObjectStoreError where error.credentialsExpired && credentialsReadAgain(after: error) {
            return try call.interpret(try await send(call).get())
        }
    }

    /// After the store said the credentials expired: reads them again. True when they changed,
    /// and the request is worth sending once more now; otherwise the error, for the moment,
    /// goes to the caller's retries.
    func credentialsReadAgain(after error: ObjectStoreError) -> Bool {
        let changed = credentials.readAgain()
        logger.warning(
            changed
                ? "the object store's credentials expired; read again, the request is sent once more"
                : "the object store's credentials expired and read the same again; the request fails for now",
            metadata: ["s3.location": "\(location.description)", "reason": "\(error)"])
        return changed
    }

    /// Sends the request; the future fails only with an ``ObjectStoreError``. Everything runs
    /// on the HTTP client's event loops, so waiting on it needs no thread of Swift's pools.
    func send<Result>(_ call: S3Call<Result>) -> EventLoopFuture<S3Response> {
        let fullKey = call.key.map { location.prefix + $0 }
        let path = location.path(of: fullKey)
        let queryText = S3Encoding.canonicalQuery(call.query)
        let verb = call.headers.contains { $0.0 == "x-amz-copy-source" } ? "COPY" : call.method
        let description = "\(verb) \(location.bucket)/\(fullKey ?? "")"
        let url =
            "\(location.endpoint.scheme!)://\(location.hostHeader)\(path)\(queryText.isEmpty ? "" : "?" + queryText)"
        let own = [("host", location.hostHeader)] + call.headers
        let signer = S3Signer(credentials: credentials.credentials, region: location.region)
        let signed = signer.signedHeaders(
            method: call.method, path: path, query: call.query, headers: own,
            payloadSHA256: S3Signer.payloadHash(call.body), date: Date())
        var headers = HTTPHeaders()
        // The client writes the length of the body it sends.
        for (name, value) in own + signed where name != "content-length" { headers.add(name: name, value: value) }
        let request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(
                url: url, method: HTTPMethod(rawValue: call.method), headers: headers,
                body: call.method == "PUT" || call.method == "POST" ? .bytes(call.body) : nil)
        } catch {
            return http.eventLoopGroup.next().makeFailedFuture(
                ObjectStoreError.transport("\(error)", request: description))
        }
        let accumulator = ResponseAccumulator(request: request, maxBodySize: maxResponseBytes)
        return http.execute(request: request, delegate: accumulator, deadline: .now() + timeout).futureResult
            .map { response in
                S3Response(
                    request: description, status: Int(response.status.code), headers: response.headers,
                    body: response.body.map { Array(buffer: $0) } ?? [])
            }
            .flatMapErrorThrowing { error in throw ObjectStoreError.transport("\(error)", request: description) }
    }
}
