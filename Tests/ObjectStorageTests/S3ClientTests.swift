import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import Testing

@testable import ObjectStorage

/// Each request of the client against Ceph's RADOS Gateway (a fresh cluster per test, from
/// Debian's packages: a real S3 implementation, which checks every signature) and against
/// moto (PyPI), a light stand-in; over real HTTP on loopback.
@Suite("S3 client against Ceph's gateway and moto", .timeLimit(.minutes(10)))
struct S3ClientTests {
    /// Runs `body` with a client of `bucket` on `store`.
    static func withClient(
        _ store: S3TestStore, bucket: String, prefix: String = "", secret: String? = nil,
        _ body: (S3Client) async throws -> Void
    ) async throws {
        let location = try #require(
            try S3Location(
                "s3://\(bucket)/\(prefix)", endpoint: store.endpoint,
                // The gateway's zone group is "default"; moto checks the region a bucket is made in.
                region: store.kind == .moto ? "eu-west-1" : "default"))
        let client = S3Client(
            location: location,
            credentials: S3CredentialSource(
                fixed: S3Credentials(accessKeyID: store.accessKeyID, secretAccessKey: secret ?? store.secretAccessKey)),
            logger: .test)
        try await body(client)
    }

    /// Runs `body` with a fresh store of `kind`, stopped however `body` ends.
    static func withStore(_ kind: S3TestStore.Kind, _ body: (S3TestStore) async throws -> Void) async throws {
        let store = try await S3TestStore.start(kind)
        defer { store.stop() }
        try await body(store)
    }

    @Test(
        "objects are written whole with their headers, read back, and absent keys are nil",
        arguments: S3TestStore.Kind.selected)
    func putGetHead(_ kind: S3TestStore.Kind) async throws {
        try await Self.withStore(kind) { store in
            try await Self.withClient(store, bucket: UniqueName.make("bucket").lowercased(), prefix: "site") { client in
                try await client.createBucket()
                try await client.createBucket()
                let key = "thumbs/200/7f/Zurbarán 1+1 (détail).jpg"
                let bytes = (0..<5_000).map { UInt8($0 % 251) }
                let etag = try await client.put(
                    key, body: bytes, contentType: "image/jpeg", cacheControl: "public, max-age=31536000, immutable",
                    metadata: ["sha256": "abc"])
                #expect(!etag.isEmpty)
                #expect(try await client.get(key) == bytes)
                let head = try #require(try await client.head(key))
                #expect(head.size == bytes.count)
                #expect(head.etag == etag)
                #expect(head.contentType == "image/jpeg")
                #expect(head.cacheControl == "public, max-age=31536000, immutable")
                #expect(head.metadata["sha256"] == "abc")
                #expect(try await client.get("thumbs/none.jpg") == nil)
                #expect(try await client.head("thumbs/none.jpg") == nil)
            }
        }
    }

    @Test(
        "a listing comes in pages, keys as written; a batch delete removes what it names",
        arguments: S3TestStore.Kind.selected)
    func listAndDelete(_ kind: S3TestStore.Kind) async throws {
        try await Self.withStore(kind) { store in
            try await Self.withClient(store, bucket: UniqueName.make("bucket").lowercased(), prefix: "out/") { client in
                try await client.createBucket()
                let keys = ["a b.json", "a+b.json", "é.json", "x/y/z.json", "  spaced  .json"]
                for key in keys { try await client.put(key, body: Array(key.utf8), contentType: "application/json") }
                var pages = 0
                var listed: [String] = []
                var token: String?
                repeat {
                    let page = try await client.list(prefix: "", continuationToken: token, maxKeys: 2)
                    pages += 1
                    listed += page.objects.map(\.key)
                    token = page.continuationToken
                } while token != nil
                #expect(pages == 3)
                #expect(listed.sorted() == keys.sorted())
                let failures = try await client.delete(["a b.json", "é.json", "never-written.json"])
                #expect(failures.isEmpty)
                var remaining: [String] = []
                try await client.listAll(prefix: "") { remaining.append($0.key) }
                #expect(remaining.sorted() == ["  spaced  .json", "a+b.json", "x/y/z.json"].sorted())
                var direct: [String] = []
                try await client.listAll(prefix: "", directOnly: true) { direct.append($0.key) }
                #expect(direct.sorted() == ["  spaced  .json", "a+b.json"].sorted())
            }
        }
    }

    @Test(
        "a missing bucket is a refusal that names it; an unreachable store is for the moment",
        arguments: S3TestStore.Kind.selected)
    func errors(_ kind: S3TestStore.Kind) async throws {
        try await Self.withStore(kind) { store in
            try await Self.withClient(store, bucket: "no-such-bucket") { client in
                let missing = await #expect(throws: ObjectStoreError.self) {
                    try await client.put("k", body: [1], contentType: "text/plain")
                }
                #expect(missing?.failureClass.isForGood == true)
                #expect(missing?.description.contains("no-such-bucket") == true)
                #expect(missing?.description.contains("NoSuchBucket") == true)
            }
            // At start-up: a missing bucket is a configuration error naming it and the endpoint.
            try await Self.withClient(store, bucket: "no-such-bucket", prefix: "site") { client in
                let refused = await #expect(throws: ObjectStoreError.self) { try await client.checkAccess() }
                guard case .configuration(let text)? = refused else {
                    Issue.record("not a configuration error: \(String(describing: refused))")
                    return
                }
                #expect(text.contains("s3://no-such-bucket/site/ at \(store.endpoint)"))
                #expect(text.contains("NoSuchBucket"))
            }
            guard kind == .cephGateway else { return }
            // The gateway checks every signature: a wrong secret is refused, for good.
            let bucket = UniqueName.make("bucket").lowercased()
            try await Self.withClient(store, bucket: bucket) { try await $0.createBucket() }
            try await Self.withClient(store, bucket: bucket, secret: "wrong") { client in
                let refused = await #expect(throws: ObjectStoreError.self) { _ = try await client.get("k") }
                #expect(refused?.description.contains("403 SignatureDoesNotMatch") == true)
                #expect(refused?.failureClass.isForGood == true)
                let atStart = await #expect(throws: ObjectStoreError.self) { try await client.checkAccess() }
                #expect(atStart?.description.contains("cannot use s3://\(bucket)/") == true)
            }
            try await Self.withClient(store, bucket: bucket) { client in
                try await client.checkAccess()
            }
        }

        let closed = S3Client(
            location: try #require(try S3Location("s3://bucket", endpoint: "http://127.0.0.1:9", region: nil)),
            credentials: S3CredentialSource(fixed: S3Credentials(accessKeyID: "a", secretAccessKey: "b")), logger: .test
        )
        let unreachable = await #expect(throws: ObjectStoreError.self) { _ = try await closed.get("k") }
        #expect(unreachable?.failureClass.isForGood == false)
        // Down at start-up: for the moment, to be tried again, not a configuration error.
        let downAtStart = await #expect(throws: ObjectStoreError.self) { try await closed.checkAccess() }
        #expect(downAtStart?.failureClass.isForGood == false)
    }

    @Test("locations: s3:// addresses, endpoints, path style, and clear errors for bad ones")
    func locations() throws {
        let aws = try #require(try S3Location("s3://my-bucket/site/prefix", endpoint: nil, region: "eu-west-1"))
        #expect(aws.prefix == "site/prefix/")
        #expect(aws.hostHeader == "my-bucket.s3.eu-west-1.amazonaws.com")
        #expect(aws.path(of: "site/prefix/a b.json") == "/site/prefix/a%20b.json")
        let local = try #require(try S3Location("s3://art", endpoint: "http://127.0.0.1:7480", region: nil))
        #expect(local.pathStyle)
        #expect(local.hostHeader == "127.0.0.1:7480")
        #expect(local.path(of: "index.json") == "/art/index.json")
        #expect(try S3Location("/var/out", endpoint: nil, region: nil) == nil)
        #expect(throws: ObjectStoreError.self) { try S3Location("s3://Bad_Bucket/x", endpoint: nil, region: nil) }
        #expect(throws: ObjectStoreError.self) { try S3Location("s3://bucket", endpoint: "ftp://x", region: nil) }
        // From the environment, as the deploy files set it; an empty variable counts as unset.
        let environment = ["AWS_ENDPOINT_URL_S3": "", "AWS_ENDPOINT_URL": "http://minio:9000", "AWS_REGION": ""]
        guard case .bucket(let fromEnvironment) = try OutputLocation("s3://artpipe", environment: environment) else {
            Issue.record("s3://artpipe is not a bucket")
            return
        }
        #expect(fromEnvironment.hostHeader == "minio:9000")
        #expect(fromEnvironment.region == "us-east-1")
    }

    @Test("credentials from the environment, else from the shared file's profile, else a clear error")
    func credentials() throws {
        let fromEnvironment = try S3Credentials.resolve(environment: [
            "AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_SESSION_TOKEN": "token",
        ])
        #expect(fromEnvironment == S3Credentials(accessKeyID: "id", secretAccessKey: "secret", sessionToken: "token"))
        let file = """
            [default]
            aws_access_key_id = one
            aws_secret_access_key = two
            # a comment
            [artpipe]
            aws_access_key_id=three
            aws_secret_access_key = four
            """
        #expect(
            try S3Credentials.fromCredentialsFile(file, profile: "artpipe", path: "f")
                == S3Credentials(accessKeyID: "three", secretAccessKey: "four"))
        #expect(throws: ObjectStoreError.self) {
            try S3Credentials.fromCredentialsFile(file, profile: "missing", path: "f")
        }
        #expect(throws: ObjectStoreError.self) {
            try S3Credentials.resolve(environment: ["AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/credentials"])
        }
        #expect(throws: ObjectStoreError.self) { try S3Credentials.resolve(environment: ["AWS_ACCESS_KEY_ID": "id"]) }
    }
}
