import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import HTTPTestKit
import IndexWorker
import KafkaClient
import ObjectStorage
import PipelineContract
import Testing
import ThumbWorker

/// The thumb and index workers publishing to an S3-compatible bucket (`--out s3://…`), against
/// Ceph's RADOS Gateway (moto where no cluster can start), compared with the same pipeline
/// publishing to a folder.
@Suite("Outputs in object storage", .serialized, .timeLimit(.minutes(8)))
struct BucketOutputTests {
    @Test(
        "to a bucket: the bytes a folder gets, thumbnails included, served with their types; the same after SIGKILLs and a replay, no image downloaded again"
    )
    func bucketMatchesFolder() async throws {
        let kind = try #require(S3TestStore.Kind.selected.first)
        let store = try await S3TestStore.start(kind)
        defer { store.stop() }
        let (sample, folderRun, bucketRun, client) = try await Self.folderAndBucketRuns(store)
        defer {
            folderRun.killWorkers()
            bucketRun.killWorkers()
        }
        for run in [folderRun, bucketRun] {
            try run.startWorkers()
            try await run.crawl()
        }
        // Killed while they work: a thumb worker between its objects, an index worker mid-publish.
        try await waitUntil("the bucket's first indexed page", timeout: .seconds(120)) {
            (await bucketRun.manifest?.progress(crawlId: PipelineRun.crawlId).pagesIndexed ?? 0) >= 1
        }
        try await bucketRun.killAndRestart("thumb-worker")
        try await bucketRun.killAndRestart("index-worker")
        let (_, folderFiles) = try await folderRun.waitForCompletion()
        let (_, bucketFiles) = try await bucketRun.waitForCompletion()
        #expect(bucketFiles.firstDifference(from: folderFiles) == nil)
        let folderThumbs = try Self.thumbnails(in: folderRun.output)
        #expect(folderThumbs.count > 50, "the sample has images")
        #expect(
            try await Self.thumbnails(in: client) == folderThumbs, "every thumbnail and its manifest, byte for byte")

        // Served as a website would: types, and caching only for what never changes.
        let page = try #require(try await client.head("index.html"))
        #expect(page.contentType == "text/html; charset=utf-8")
        #expect(page.cacheControl == "no-cache")
        #expect(try await client.head("index.json")?.contentType == "application/json")
        let thumbnail = try #require(folderThumbs.keys.first { $0.hasSuffix(".jpg") })
        let thumbnailHead = try #require(try await client.head(thumbnail))
        #expect(thumbnailHead.contentType == "image/jpeg")
        #expect(thumbnailHead.cacheControl == "public, max-age=31536000, immutable")
        #expect(try await folderRun.stopWorkers().isEmpty)

        // A replay of every page: nothing downloaded again, checked without listing the bucket.
        let imagesBefore = sample.server.imageRequestsServed
        #expect(try await bucketRun.stopWorkers(["thumb-worker", "index-worker"]).isEmpty)
        for group in ["artpipe-thumb", "artpipe-index"] {
            let replay = try ChildProcess(
                "artpipe",
                [
                    "replay", "--brokers", bucketRun.brokers, "--group", group, "--topic", ArtpipeTopic.pages,
                    "--to-earliest", "--execute",
                ])
            #expect(try await replay.waitForExit(timeout: .seconds(90)) == 0, "\(replay.stderr)")
        }
        try bucketRun.start("thumb-worker")
        try bucketRun.start("index-worker")
        try await bucketRun.waitUntilCaughtUp(groups: ["artpipe-thumb", "artpipe-index"])
        let (_, replayedFiles) = try await bucketRun.waitForCompletion()
        #expect(replayedFiles.firstDifference(from: folderFiles) == nil)
        #expect(try await Self.thumbnails(in: client) == folderThumbs)
        #expect(sample.server.imageRequestsServed == imagesBefore, "no image downloaded again")
        try await bucketRun.expectCleanStop()
        await folderRun.shutdown()
        await sample.stop()
    }

    @Test(
        "the store down mid-run: pages wait on the retry topics, the index waits for the store, then the bytes a folder gets",
        .enabled(
            if: S3TestStore.Kind.selected.contains(.cephGateway), "needs Ceph's gateway, which can go down and back"))
    func storeDownMidRun() async throws {
        let store = try await S3TestStore.start(.cephGateway)
        defer { store.stop() }
        let (sample, folderRun, bucketRun, _) = try await Self.folderAndBucketRuns(store)
        defer {
            folderRun.killWorkers()
            bucketRun.killWorkers()
        }
        // Retries soon enough for a test; the default waits a minute, then ten.
        bucketRun.thumbWorkerFlags = ["--retry-delays", "2s,4s,8s"]
        for run in [folderRun, bucketRun] { try run.startWorkers() }
        try await folderRun.crawl()
        let (_, folderFiles) = try await folderRun.waitForCompletion()
        try await store.setGateway(up: false)
        try await bucketRun.crawl()
        let thumb = try #require(bucketRun.workers["thumb-worker"]?.first)
        let index = try #require(bucketRun.workers["index-worker"]?.first)
        do {
            try await waitUntil("both workers to meet the store down", timeout: .seconds(120)) {
                thumb.stdout.contains("\"retry.topic\":\"artpipe.pages.retry-1\"")
                    && index.stdout.contains("cannot publish the index for the moment")
            }
        } catch {
            Issue.record("thumb worker:\n\(thumb.stdout.suffix(3_000))\nindex worker:\n\(index.stdout.suffix(3_000))")
            throw error
        }
        try await store.setGateway(up: true)
        let (_, bucketFiles) = try await bucketRun.waitForCompletion(timeout: .seconds(240))
        #expect(bucketFiles.firstDifference(from: folderFiles) == nil)
        let status = try await bucketRun.status()
        #expect(status.contains("dead letters: 0"), "nothing dead-lettered: \(status)")
        try await bucketRun.expectCleanStop()
        await folderRun.shutdown()
        await sample.stop()
    }

    @Test(
        "a missing bucket or no keys stop the workers at start-up with a clear error; prune refuses a bucket"
    )
    func refusedAtStartUp() async throws {
        let kind = try #require(S3TestStore.Kind.selected.last)
        let store = try await S3TestStore.start(kind)
        defer { store.stop() }
        let keys = ["AWS_ACCESS_KEY_ID": store.accessKeyID, "AWS_SECRET_ACCESS_KEY": store.secretAccessKey]
        let unused = "127.0.0.1:9"
        for role in ["thumb-worker", "index-worker"] {
            let missing = try ChildProcess(
                "artpipe",
                [role, "--brokers", unused, "--out", "s3://no-such-bucket/site", "--s3-endpoint", store.endpoint],
                environment: keys)
            #expect(try await missing.waitForExit(timeout: .seconds(60)) == 2, "\(missing.stderr)")
            #expect(missing.stderr.contains("s3://no-such-bucket/site/ at \(store.endpoint)"), "\(missing.stderr)")
            #expect(missing.stderr.contains("NoSuchBucket"), "\(missing.stderr)")
        }
        let noKeys = try ChildProcess(
            "artpipe",
            ["thumb-worker", "--brokers", unused, "--out", "s3://some-bucket", "--s3-endpoint", store.endpoint],
            environment: ["AWS_ACCESS_KEY_ID": "", "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/credentials"])
        #expect(try await noKeys.waitForExit(timeout: .seconds(60)) == 2)
        #expect(noKeys.stderr.contains("no credentials"), "\(noKeys.stderr)")
        let prune = try ChildProcess(
            "artpipe", ["prune", "--out", "s3://no-such-bucket/site", "--s3-endpoint", store.endpoint],
            environment: keys)
        #expect(try await prune.waitForExit(timeout: .seconds(60)) == 2)
        #expect(prune.stderr.contains("NoSuchBucket"), "\(prune.stderr)")
    }

    @Test(
        "prune of a bucket: thumbnails reused after index.json was written stay, the unused go; pages wait while a prune holds the fence",
        // moto's copy of an object onto itself does not renew what the prune reads (its thumbnails
        // went missing in the runtime-libraries chroot); the claim is made against Ceph's gateway.
        .enabled(
            if: S3TestStore.Kind.selected.contains(.cephGateway),
            "needs Ceph's gateway: a copy onto itself renews the time")
    )
    func pruneAfterReplay() async throws {
        let store = try await S3TestStore.start(.cephGateway)
        defer { store.stop() }
        let sample = try await SampleServerHandle.start(ReferenceRun.configuration)
        let run = try PipelineRun(sample: sample)
        defer { run.killWorkers() }
        let bucket = UniqueName.make("prune").lowercased()
        let client = try await run.publish(to: store, bucket: bucket)
        // Every reuse renews the object's time (the default renews only those older than an
        // hour, against the default --keep-recent of a day), and retries come soon.
        run.thumbWorkerFlags = ["--touch-after", "0s", "--retry-delays", "2s,4s,8s"]
        try await client.put("thumbs/200/zz/orphan.jpg", body: [0xFF, 0xD8], contentType: "image/jpeg")
        try run.startWorkers()
        try await run.crawl()
        _ = try await run.waitForCompletion()

        // The index as a prune would see it once every work was dropped: every thumbnail is
        // then unused, and the replay below brings every work back, reusing its thumbnails.
        #expect(try await run.stopWorkers(["thumb-worker", "index-worker"]).isEmpty)
        let published = run.published
        try await offCooperativePool { try published.publishWhole(.build(from: IndexInputs())) }
        // A prune holds the fence: the replayed pages wait on the retry topics until it is lowered.
        var fence = PruneFence(generation: "held-by-the-test", running: true, heartbeat: 0)
        try await offCooperativePool { [fence] in try fence.write(to: published) }
        let replay = try ChildProcess(
            "artpipe",
            [
                "replay", "--brokers", run.brokers, "--group", "artpipe-thumb", "--topic", ArtpipeTopic.pages,
                "--to-earliest", "--execute",
            ])
        #expect(try await replay.waitForExit(timeout: .seconds(90)) == 0, "\(replay.stderr)")
        let thumbWorker = try run.start("thumb-worker")
        try await waitUntil("the thumb worker to hold a page back for the prune", timeout: .seconds(120)) {
            thumbWorker.stdout.contains("a prune of the bucket is deleting thumbnails")
        }
        fence.running = false
        try await offCooperativePool { [fence] in try fence.write(to: published) }
        try await run.waitUntilCaughtUp(groups: ["artpipe-thumb"], timeout: .seconds(240))

        let prune = try ChildProcess(
            "artpipe",
            ["prune", "--out", "s3://\(bucket)/site", "--execute", "--keep-recent", "1s", "--touch-after", "0s"],
            environment: [
                "AWS_ACCESS_KEY_ID": store.accessKeyID, "AWS_SECRET_ACCESS_KEY": store.secretAccessKey,
                "AWS_ENDPOINT_URL": store.endpoint,
            ])
        #expect(try await prune.waitForExit(timeout: .seconds(120)) == 0, "\(prune.stderr)")
        #expect(prune.stdout.contains("removed thumbs/200/zz/orphan.jpg\n"), "\(prune.stdout.suffix(2_000))")
        #expect(try await client.head("thumbs/200/zz/orphan.jpg") == nil)

        // The index rebuilt from Kafka: every thumbnail it shows is in the bucket.
        run.useNewIndexState()
        try run.start("index-worker")
        let (index, _) = try await run.waitForCompletion(timeout: .seconds(240))
        let shown = index.artists.flatMap(\.works).flatMap(\.thumbnails.values)
        #expect(shown.count > 50, "the sample has images")
        var missing: [String] = []
        for path in shown where try await client.head(path) == nil { missing.append(path) }
        #expect(missing.isEmpty, "\(missing.count) of \(shown.count) thumbnails missing, such as \(missing.prefix(3))")
        let status = try await run.status()
        #expect(status.contains("dead letters: 0"), "nothing dead-lettered: \(status)")
        try await run.expectCleanStop()
        await sample.stop()
    }

    @Test(
        "demo to a bucket: complete, the gallery in the bucket; again in the same prefix; a foreign prefix refused, untouched"
    )
    func demoToBucket() async throws {
        let kind = try #require(S3TestStore.Kind.selected.first)
        let store = try await S3TestStore.start(kind)
        defer { store.stop() }
        let bucket = UniqueName.make("demo").lowercased()
        let client = S3Client(
            location: try #require(try S3Location("s3://\(bucket)", endpoint: store.endpoint, region: nil)),
            credentials: S3CredentialSource(
                fixed: S3Credentials(accessKeyID: store.accessKeyID, secretAccessKey: store.secretAccessKey)),
            logger: .test)
        try await client.createBucket()
        try await client.put("foreign/precious.txt", body: Array("keep me".utf8), contentType: "text/plain")
        let keys = ["AWS_ACCESS_KEY_ID": store.accessKeyID, "AWS_SECRET_ACCESS_KEY": store.secretAccessKey]
        func demo(_ prefix: String) throws -> ChildProcess {
            let work = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("demo-work"))
            return try ChildProcess(
                "artpipe",
                [
                    "demo", "--out", "s3://\(bucket)/\(prefix)", "--s3-endpoint", store.endpoint, "--work-dir",
                    work.path, "--pages", "2", "--page-size", "10", "--timeout", "180",
                ], environment: keys)
        }
        for round in 1...2 {
            let run = try demo("site")
            defer { run.stop() }
            #expect(try await run.waitForExit(timeout: .seconds(200)) == 0, "round \(round): \(run.stderr)")
            #expect(run.stdout.contains("gallery     s3://\(bucket)/site/index.html"), "\(run.stdout)")
            let front = String(decoding: try #require(try await client.get("site/index.html")), as: UTF8.self)
            #expect(front.contains("gallery/letter-"))
            var thumbnails = 0
            try await client.listAll(prefix: "site/thumbs/") { if $0.key.hasSuffix(".jpg") { thumbnails += 1 } }
            #expect(thumbnails > 0)
        }
        let refused = try demo("foreign")
        defer { refused.stop() }
        #expect(try await refused.waitForExit(timeout: .seconds(60)) == 2)
        #expect(refused.stderr.contains("not empty and was not made by artpipe demo"), "\(refused.stderr)")
        #expect(try await client.get("foreign/precious.txt") == Array("keep me".utf8))
    }

    /// Two pipelines on one sample server, so their image URLs and bytes are the same: one
    /// publishing to a folder, one to a new bucket of `store`; and a client of that bucket.
    static func folderAndBucketRuns(_ store: S3TestStore) async throws -> (
        sample: SampleServerHandle, folder: PipelineRun, bucket: PipelineRun, client: S3Client
    ) {
        let sample = try await SampleServerHandle.start(ReferenceRun.configuration)
        let folderRun = try PipelineRun(sample: sample)
        let bucketRun = try PipelineRun(sample: sample)
        let client = try await bucketRun.publish(to: store, bucket: UniqueName.make("out").lowercased())
        return (sample, folderRun, bucketRun, client)
    }

    /// Every file under `thumbs/` of a folder (manifests included, temporary files not).
    static func thumbnails(in output: URL) throws -> [String: [UInt8]] {
        let thumbs = output.appendingPathComponent("thumbs")
        var files: [String: [UInt8]] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: thumbs.path)?.allObjects ?? [] {
            var isDirectory: ObjCBool = false
            let url = thumbs.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                !path.hasSuffix(".tmp")
            else { continue }
            files["thumbs/\(path)"] = Array(try Data(contentsOf: url))
        }
        return files
    }

    /// Every object under `thumbs/` of the bucket.
    static func thumbnails(in client: S3Client) async throws -> [String: [UInt8]] {
        var keys: [String] = []
        try await client.listAll(prefix: "thumbs/") { keys.append($0.key) }
        var objects: [String: [UInt8]] = [:]
        for key in keys { objects[key] = try await client.get(key) }
        return objects
    }
}
