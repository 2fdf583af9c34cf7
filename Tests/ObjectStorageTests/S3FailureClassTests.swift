import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import HTTPTestKit
import Synchronization
import Testing

@testable import ObjectStorage

@Suite("Object store failures: for the moment or for good", .timeLimit(.minutes(1)))
struct S3FailureClassTests {
    static func client(_ server: TestHTTPServer, credentials: S3CredentialSource) throws -> S3Client {
        S3Client(
            location: try #require(try S3Location("s3://bucket", endpoint: server.baseURL, region: "us-east-1")),
            credentials: credentials, logger: .test)
    }

    /// A client of `server` with keys that need not be real.
    static func client(_ server: TestHTTPServer) throws -> S3Client {
        try client(server, credentials: S3CredentialSource(fixed: .init(accessKeyID: "a", secretAccessKey: "b")))
    }

    /// An S3 error answer: `status`, with S3's `code`.
    static func error(_ status: Int, _ code: String) -> TestHTTPServer.Response {
        TestHTTPServer.Response(
            status: status, headers: [("Content-Type", "application/xml")],
            body: Array("<Error><Code>\(code)</Code><Message>m</Message></Error>".utf8))
    }

    /// A DeleteObjects answer of 200 whose keys failed, each with S3's code.
    static func deleteResult(_ errors: [(key: String, code: String)]) -> TestHTTPServer.Response {
        let entries = errors.map { "<Error><Key>\($0.key)</Key><Code>\($0.code)</Code><Message>m</Message></Error>" }
        return TestHTTPServer.Response(
            headers: [("Content-Type", "application/xml")],
            body: Array("<?xml version=\"1.0\"?><DeleteResult>\(entries.joined())</DeleteResult>".utf8))
    }

    @Test(
        "a key DeleteObjects could not delete is for the moment when S3 says the store is busy, for good when refused")
    func deleteFailures() async throws {
        let server = try await TestHTTPServer.start { _ in
            Self.deleteResult([
                ("busy", "InternalError"), ("slow", "SlowDown"), ("ceph", "UnknownError"), ("denied", "AccessDenied"),
            ])
        }
        defer { Task { await server.stop() } }
        let client = try Self.client(
            server, credentials: S3CredentialSource(fixed: .init(accessKeyID: "a", secretAccessKey: "b")))
        let failures = try await client.delete(["busy", "slow", "ceph", "denied"])
        let classes = Dictionary(
            uniqueKeysWithValues: failures.map { ($0.key, $0.error(request: "DELETE").failureClass) })
        #expect(classes == ["busy": .forNow, "slow": .forNow, "ceph": .forNow, "denied": .forGood])
        // Through the store, as the index publisher and prune meet it.
        let store = BucketOutputStore(client: client, touchAfter: .seconds(3_600))
        let thrown = #expect(throws: ObjectStoreError.self) { try store.remove("busy") }
        #expect(thrown?.failureClass == .forNow, "\(String(describing: thrown))")
    }

    @Test(
        "a store that answers NotImplemented to a conditional PUT gets the object unconditionally, then every later write so; a 412 is a conflict for the moment"
    )
    func conditionsNotImplemented() async throws {
        let conditional = Mutex<[String]>([])
        let refuse412 = Mutex(false)
        let server = try await TestHTTPServer.start { request in
            let condition = request.headers["if-match"] ?? request.headers["if-none-match"]
            conditional.withLock { $0.append(condition ?? "none") }
            guard condition != nil else { return TestHTTPServer.Response(headers: [("ETag", "\"e1\"")], body: []) }
            return refuse412.withLock { $0 } ? Self.error(412, "PreconditionFailed") : Self.error(501, "NotImplemented")
        }
        defer { Task { await server.stop() } }
        let client = try Self.client(server)
        refuse412.withLock { $0 = true }
        let store = BucketOutputStore(client: client)
        try await offCooperativePool {
            let conflict = #expect(throws: OutputConflict.self) {
                try store.write([("works/0001.jsonl", [1])], durable: false, conditions: ["works/0001.jsonl": .absent])
            }
            #expect(conflict.map { FailureClass.of($0) } == .forNow)
        }
        refuse412.withLock { $0 = false }
        try await offCooperativePool {
            for version in [OutputCondition.absent, .version(OutputVersion("e0"))] {
                let written = try store.write(
                    [("works/0001.jsonl", [1])], durable: false, conditions: ["works/0001.jsonl": version])
                #expect(written == [OutputVersion("e1")])
            }
        }
        #expect(conditional.withLock { $0 } == ["*", "*", "none", "none"])
    }

    @Test(
        "If-Match is sent bare, then quoted once on a refusal, and the form that passed is kept; a 404 NoSuchKey is a conflict; a refusal stays one whatever the quoted form meets"
    )
    func ifMatchForms() async throws {
        let seen = Mutex<[String]>([])
        // What the store does with a quoted If-Match, and with a bare one.
        let answers = Mutex((quoted: 200, bare: 412, code: "PreconditionFailed"))
        let server = try await TestHTTPServer.start { request in
            let condition = request.headers["if-match"] ?? "none"
            seen.withLock { $0.append(condition) }
            let answer = answers.withLock { $0 }
            let status = condition == "none" ? 200 : condition.hasPrefix("\"") ? answer.quoted : answer.bare
            guard status != 200 else { return TestHTTPServer.Response(headers: [("ETag", "\"e2\"")], body: []) }
            return Self.error(status, status == 501 ? "NotImplemented" : answer.code)
        }
        defer { Task { await server.stop() } }
        let client = try Self.client(server)
        let path = "works/0001.jsonl"
        let write = { (store: BucketOutputStore) in
            try await offCooperativePool {
                try store.write([(path, [1])], durable: false, conditions: [path: .version(OutputVersion("e1"))])
            }
        }
        // A store that takes only the quoted form: bare refused, quoted passes, then quoted alone.
        let quoting = BucketOutputStore(client: client)
        #expect(try await write(quoting) == [OutputVersion("e2")])
        #expect(try await write(quoting) == [OutputVersion("e2")])
        #expect(seen.withLock { $0 } == ["e1", "\"e1\"", "\"e1\""])
        // A key gone since the listing: AWS's 404 NoSuchKey.
        answers.withLock { $0 = (404, 404, "NoSuchKey") }
        await #expect(throws: OutputConflict.self) { try await write(BucketOutputStore(client: client)) }
        // Bare refused, quoted not implemented: the refusal stands, nothing is written unconditionally.
        answers.withLock { $0 = (501, 412, "PreconditionFailed") }
        seen.withLock { $0 = [] }
        await #expect(throws: OutputConflict.self) { try await write(BucketOutputStore(client: client)) }
        #expect(seen.withLock { $0 } == ["e1", "\"e1\""])
    }

    @Test("credentials the store says expired are read again, and the request is sent once more with the new ones")
    func expiredCredentials() async throws {
        let tokens = Mutex<[String]>([])
        let server = try await TestHTTPServer.start { request in
            let token = request.headers["x-amz-security-token"] ?? "none"
            tokens.withLock { $0.append(token) }
            guard token == "renewed" else {
                return TestHTTPServer.Response(
                    status: 400, headers: [("Content-Type", "application/xml")],
                    body: Array(
                        "<Error><Code>ExpiredToken</Code><Message>The provided token has expired.</Message></Error>"
                            .utf8))
            }
            return TestHTTPServer.Response(headers: [("ETag", "\"e1\"")], body: [])
        }
        defer { Task { await server.stop() } }
        let renewed = Mutex(false)
        let source = S3CredentialSource(.init(accessKeyID: "a", secretAccessKey: "b", sessionToken: "first")) {
            .init(accessKeyID: "a", secretAccessKey: "b", sessionToken: renewed.withLock { $0 } ? "renewed" : "first")
        }
        let client = try Self.client(server, credentials: source)
        // Read again, the same: the error passes to the caller, for the moment.
        let expired = await #expect(throws: ObjectStoreError.self) {
            try await client.put("a.txt", body: [1], contentType: "text/plain")
        }
        #expect(expired?.failureClass == .forNow, "\(String(describing: expired))")
        // The file was renewed meanwhile: the next request reads it and goes through.
        renewed.withLock { $0 = true }
        try await client.put("a.txt", body: [1], contentType: "text/plain")
        #expect(tokens.withLock { $0 } == ["first", "first", "renewed"])
    }
}
