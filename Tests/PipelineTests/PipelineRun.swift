import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import HTTPTestKit
import IndexWorker
import KafkaClient
import KafkaTestKit
import ObjectStorage
import PipelineContract
import SampleCollection
import Testing

/// One pipeline on its own embedded broker: the three workers as `artpipe` processes over TCP,
/// crawling a sample server into an output directory of its own.
final class PipelineRun: @unchecked Sendable {
    static let crawlId = "e2e"

    let cluster: TestCluster
    let sample: SampleServerHandle
    let output: URL
    /// rijksmuseum (the legacy API), rijksmuseum-search (Search API and Linked Art),
    /// rijksmuseum-oai (OAI-PMH and EDM), flickr or itunes.
    let source: String
    private(set) var workers: [String: [ChildProcess]] = [:]
    /// Added to every fetch worker's command line.
    var fetchWorkerFlags: [String] = []
    /// Added to every thumb worker's command line.
    var thumbWorkerFlags: [String] = []
    /// Where the thumb and index workers publish: ``output`` unless ``publish(to:bucket:)``
    /// chose a bucket (the index state stays in ``output`` then).
    private(set) var published: any OutputStore
    private var outFlags: [String]
    private var stateFlags: [String] = []
    private var statusFlags: [String]
    /// Added to every worker's environment (the store's keys).
    private var environment: [String: String] = [:]

    init(sample: SampleServerHandle, source: String = "rijksmuseum", partitions: Int = 3) throws {
        self.source = source
        cluster = try TestCluster()
        for topic in ArtpipeTopic.all {
            try cluster.broker.createTopic(topic, partitions: partitions)
        }
        self.sample = sample
        output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("pipeline-out"))
        published = FolderOutputStore(directory: output)
        outFlags = ["--out", output.path]
        statusFlags = ["--out", output.path]
    }

    /// Makes the thumb and index workers publish to a new bucket of `store` (under a prefix),
    /// with the store's keys in their environment. Returns the client the run reads it with.
    func publish(to store: S3TestStore, bucket: String) async throws -> S3Client {
        let address = "s3://\(bucket)/site"
        let client = try await store.makeBucket(address)
        published = BucketOutputStore(client: client)
        outFlags = ["--out", address, "--s3-endpoint", store.endpoint]
        stateFlags = ["--state", output.appendingPathComponent(".index-state").path]
        statusFlags = ["--out", address] + stateFlags
        environment = [
            "AWS_ACCESS_KEY_ID": store.accessKeyID, "AWS_SECRET_ACCESS_KEY": store.secretAccessKey,
            // For `status`, which takes the endpoint from the environment only.
            "AWS_ENDPOINT_URL": store.endpoint,
        ]
        return client
    }

    var brokers: String { cluster.brokers }

    /// Gives index workers started from now on an empty state folder, so they read every
    /// partition from the start (a bucket run only: a folder run keeps its state in the output).
    func useNewIndexState() {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("index-state")).path
        stateFlags = ["--state", state]
        statusFlags = Array(statusFlags.prefix(2)) + stateFlags
    }
    /// The legacy API lists the collection's pages, and Flickr's stand-in the same; the Search
    /// API pages its distinct works, OAI-PMH too (200 records a page), and iTunes, which ends
    /// on a short page (an empty one after a full last page).
    var expectedPages: Int {
        let size =
            switch source {
            case "rijksmuseum-search", "itunes": sample.collection.configuration.pageSize
            case "rijksmuseum-oai": 200
            default: 0
            }
        guard size > 0 else { return sample.collection.pages.count }
        let works = sample.collection.works.count
        return source == "itunes" ? works / size + 1 : (works + size - 1) / size
    }

    /// The Flickr key the fetch workers and the crawl read: the stand-in takes any.
    lazy var flickrKeyFile: String = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("flickr-key"))
        try? Data("pipeline-test-key\n".utf8).write(to: url)
        return url.path
    }()

    /// What the crawl adds for its source: page sizes, a sort, a search term, the Flickr key.
    var crawlFlags: [String] {
        let pageSize = ["--page-size", String(sample.collection.configuration.pageSize)]
        switch source {
        case "rijksmuseum": return pageSize + ["--query", "s=artist"]
        case "flickr": return pageSize + ["--query", "text=painting", "--flickr-key-file", flickrKeyFile]
        case "itunes": return pageSize + ["--query", "term=sample"]
        default: return []
        }
    }

    func arguments(_ role: String) -> [String] {
        let common = ["--brokers", brokers, "--metrics-interval", "1"] + EmbeddedBrokerSettings.flags
        switch role {
        case "fetch-worker":
            return ["fetch-worker", "--base-url", sample.baseURL, "--flickr-key-file", flickrKeyFile]
                + fetchWorkerFlags + common
        case "thumb-worker":
            return ["thumb-worker", "--allow-host", "127.0.0.1", "--allow-private-hosts"] + outFlags + thumbWorkerFlags
                + common
        default: return ["index-worker", "--write-interval", "0.2"] + outFlags + stateFlags + common
        }
    }

    /// Starts `count` instances of every worker.
    func startWorkers(instances count: Int = 1) throws {
        for role in ["fetch-worker", "thumb-worker", "index-worker"] {
            for _ in 0..<count { try start(role) }
        }
    }

    @discardableResult
    func start(_ role: String) throws -> ChildProcess {
        let process = try ChildProcess("artpipe", arguments(role), environment: environment)
        workers[role, default: []].append(process)
        return process
    }

    /// SIGKILLs the first instance of `role` and starts another in its place, returning once
    /// the new one runs its worker (a stop sent while a process is still being exec'd would
    /// find no handler yet, in any program).
    func killAndRestart(_ role: String) async throws {
        let victim = workers[role]!.removeFirst()
        victim.signal(SIGKILL)
        _ = try await victim.waitForExit(timeout: .seconds(10))
        let replacement = try start(role)
        try await waitUntil("the restarted \(role) to start its worker", timeout: .seconds(30)) {
            replacement.stdout.contains("worker started") || !replacement.isRunning
        }
    }

    /// Crawls the run's source, or `source` with only `extra`'s flags.
    func crawl(crawlId: String = PipelineRun.crawlId, source: String? = nil, extra: [String] = []) async throws {
        let crawl = try ChildProcess(
            "artpipe",
            [
                "crawl", "--brokers", brokers, "--source", source ?? self.source, "--base-url", sample.baseURL,
                "--pages", "all", "--crawl-id", crawlId,
            ]
                + (source == nil ? crawlFlags : []) + extra)
        let status = try await crawl.waitForExit(timeout: .seconds(60))
        guard status == 0 else { throw DeadlineExceeded(description: "crawl failed: \(crawl.stderr)") }
    }

    /// `artpipe status --out` for this run: its stdout.
    func status() async throws -> String {
        let status = try ChildProcess(
            "artpipe", ["status", "--brokers", brokers] + statusFlags, environment: environment)
        guard try await status.waitForExit(timeout: .seconds(60)) == 0 else {
            throw DeadlineExceeded(description: "status failed: \(status.stderr)")
        }
        return status.stdout
    }

    var manifest: IndexManifest? {
        get async { try? await offCooperativePool { [published] in try PublishedIndex.manifest(in: published) } }
    }

    /// Waits until every page is indexed or failed and no thumbnail is pending, and the files
    /// on disk are exactly what the index they hold publishes (none stale, none missing);
    /// returns that index and its files. The deadline is for a full harvest's thumbnails on a
    /// loaded 2-core machine: 480 of them took 146 s in a full suite here, over 180 s in CI.
    func waitForCompletion(
        crawlId: String = PipelineRun.crawlId, expectedPages: Int? = nil, timeout: Duration = .seconds(300)
    ) async throws -> (index: ArtistIndex, files: PublishedFiles) {
        var complete: (ArtistIndex, PublishedFiles)?
        let pages = expectedPages ?? self.expectedPages
        // What the last look found, so a timeout says which part never came.
        var seen = "no manifest"
        try await waitUntil(
            "the index to be complete (\(pages) pages of \(crawlId)); last seen: \(seen); the workers: \(workerSummaries)",
            timeout: timeout
        ) {
            guard let manifest = await manifest else { return false }
            let progress = manifest.progress(crawlId: crawlId)
            seen = "\(progress)"
            guard progress.isComplete(expectedPages: pages) else { return false }
            let found = try await offCooperativePool { [published] () -> Result<(ArtistIndex, PublishedFiles), Stale> in
                guard
                    let files = PublishedFiles(
                        in: published,
                        paths: (try? IndexLayout.publishedVersions(in: published)).map { Array($0.keys) } ?? [])
                else { return .failure(Stale(reason: "a published file could not be read")) }
                guard let index = try? PublishedIndex.read(from: published).index else {
                    return .failure(Stale(reason: "the index could not be read"))
                }
                let differing = PublishedFiles(IndexLayout.files(for: index)).differences(from: files)
                guard differing.isEmpty else {
                    return .failure(Stale(reason: "files not what the index publishes: \(differing.prefix(5))"))
                }
                return .success((index, files))
            }
            switch found {
            case .success(let result):
                complete = result
                return true
            case .failure(let stale):
                seen = "\(progress), \(stale.reason)"
                return false
            }
        }
        return complete!
    }

    /// Why the published files were not yet the complete index.
    private struct Stale: Error {
        let reason: String
    }

    /// Each worker's last events and metrics, for a timeout's message: which one stopped, and why.
    private var workerSummaries: String {
        workers.sorted { $0.key < $1.key }.flatMap { role, processes in
            processes.enumerated().map { number, process in "\(role) \(number + 1): \(process.logSummary(lines: 20))" }
        }.joined(separator: " || ")
    }

    /// Waits until each of `groups` has committed the end of every partition of every topic it
    /// reads: `artpipe.pages` (after a replay: read again to its end) and, for the thumb worker,
    /// its retry topics, where a page that failed for the moment waits.
    ///
    /// One read is enough: committed offsets are read before the ends, and a worker sends a
    /// retry copy before it commits the message it copies, so a page moving from one topic to
    /// another is seen on one of them.
    func waitUntilCaughtUp(groups: [String], timeout: Duration = .seconds(120)) async throws {
        let offsets = KafkaGroupOffsets(configuration: KafkaClientConfiguration(brokers: brokers), logger: .test)
        let topics = groups.map { PipelineStage(groupID: $0)?.inputTopics ?? [ArtpipeTopic.pages] }
        try await waitUntil(
            "\(groups.joined(separator: " and ")) to read \(Set(topics.joined()).sorted()) to their ends",
            timeout: timeout
        ) {
            for (group, topics) in zip(groups, topics) {
                let rows = try await offsets.positions(group: group, topics: topics)
                // A partition the group never committed on is read to its end when it is empty.
                guard rows.allSatisfy({ ($0.committed ?? $0.low) == $0.high }) else { return false }
            }
            return true
        }
    }

    /// SIGTERM to every worker: each must exit 0. Then the broker stops.
    func expectCleanStop() async throws {
        let failures = try await stopWorkers()
        #expect(failures.isEmpty, "\(failures)")
        await shutdown()
    }

    /// SIGTERM to every worker; returns a line for each that did not exit 0 (none: all clean).
    func stopWorkers(_ roles: [String] = ["fetch-worker", "thumb-worker", "index-worker"]) async throws -> [String] {
        for role in roles {
            for process in workers[role] ?? [] where process.isRunning {
                process.signal(SIGTERM)
            }
        }
        var failures: [String] = []
        for role in roles {
            for process in workers[role] ?? [] {
                let status: Int32
                do {
                    status = try await process.waitForExit(timeout: .seconds(60))
                } catch let error as DeadlineExceeded {
                    process.stop()
                    failures.append("\(role) still running 60 s after SIGTERM, killed: \(error)")
                    continue
                }
                if status != 0 {
                    let reason = process.exitedBySignal ? "signal" : "exit"
                    let tail = (process.stderr + process.stdout).split(separator: "\n").suffix(3).joined(
                        separator: " | ")
                    failures.append("\(role) \(reason) \(status): \(tail); \(process.keptLog(as: role))")
                }
            }
            workers[role] = []
        }
        return failures
    }

    /// SIGKILLs every worker still running: synchronous, so it can run in a `defer` and no
    /// worker outlives its test.
    func killWorkers() {
        for process in workers.values.flatMap({ $0 }) { process.stop() }
        workers = [:]
    }

    func shutdown() async {
        killWorkers()
        await cluster.shutdown()
    }
}
