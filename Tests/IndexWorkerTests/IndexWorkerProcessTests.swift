import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import IndexWorker
import KafkaClient
import PipelineContract
import Testing

/// `artpipe index-worker` as separate processes on a real broker, against the pure build of
/// the same inputs.
@Suite("IndexWorker processes: crash-safe and scale-out", .serialized, .timeLimit(.minutes(4)))
struct IndexWorkerProcessTests {
    struct Setup {
        let cluster: TestCluster
        let output: URL
        let messages: [KafkaProducerRecord]
        let index: ArtistIndex
        let expected: PublishedFiles

        init() throws {
            cluster = try TestCluster()
            try cluster.broker.createTopic(ArtpipeTopic.pages, partitions: 3)
            try cluster.broker.createTopic(ArtpipeTopic.thumbnails, partitions: 3)
            try cluster.broker.createTopic(ArtpipeTopic.deadLetters, partitions: 1)
            output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("index-out"))
            let pages = try ArtistIndexTests.recordedPages()
            var inputs = IndexInputs()
            var records: [KafkaProducerRecord] = []
            for page in pages {
                inputs.add(page)
                records.append(try MessageCodec.record(page, topic: ArtpipeTopic.pages))
                let thumbnails = ArtistIndexTests.thumbnails(for: page)
                inputs.add(thumbnails)
                records.append(try MessageCodec.record(thumbnails, topic: ArtpipeTopic.thumbnails))
            }
            // A page FetchWorker gave up on, as its dead letter.
            let failed = PageRequest(
                crawlId: "crawl-a", source: "rijksmuseum", query: ["s": "artist", "c": "crawl-a"], page: 4, pageSize: 20
            )
            inputs.addFailure(failed, reason: "HTTP 503 (after 5 attempts)")
            let original = KafkaConsumerMessage(
                topic: ArtpipeTopic.pageRequests, partition: 0, offset: 7, key: Array(failed.pageId.utf8),
                value: try MessageCodec.record(failed, topic: ArtpipeTopic.pageRequests).value)
            records.append(DeadLetter.record(for: original, reason: "HTTP 503 (after 5 attempts)", worker: "fetch"))
            messages = records
            index = ArtistIndex.build(from: inputs)
            expected = PublishedFiles(IndexLayout.files(for: index))
        }

        func startWorker(writeInterval: String = "0.2", metricsInterval: String = "60") throws -> ChildProcess {
            try ChildProcess(
                "artpipe",
                [
                    "index-worker", "--brokers", cluster.brokers, "--out", output.path, "--write-interval",
                    writeInterval,
                    "--metrics-interval", metricsInterval,
                ]
                    + EmbeddedBrokerSettings.flags)
        }

        /// Every published file now on disk.
        var published: PublishedFiles? {
            PublishedFiles(in: output, paths: (try? IndexLayout.publishedPaths(in: output)) ?? [])
        }

        func waitForExpectedIndex() async throws {
            try await waitUntil("the published files to match the pure build", timeout: .seconds(90)) {
                published == expected
            }
        }
    }

    @Test("every published file is byte-identical to the pure build of the same pages; the gallery shows every work")
    func cleanRun() async throws {
        let setup = try Setup()
        try await setup.cluster.producer.send(setup.messages)
        let worker = try setup.startWorker()
        defer { worker.stop() }
        try await setup.waitForExpectedIndex()
        worker.signal(SIGTERM)
        #expect(try await worker.waitForExit(timeout: .seconds(40)) == 0)
        let index = setup.index
        let pages = setup.expected.files.filter { $0.key.hasPrefix("gallery/") && $0.key.hasSuffix(".html") }
        let figures = pages.values.map {
            String(decoding: $0, as: UTF8.self).components(separatedBy: "<figure ").count - 1
        }
        #expect(figures.reduce(0, +) == index.totals.works)
        #expect(try PublishedIndex.read(from: setup.output).index.artists == index.artists, "the files read back")
        #expect(index.crawls.first { $0.crawlId == "crawl-a" }?.failedPages.map(\.page) == [4])
        await setup.cluster.shutdown()
    }

    @Test(
        "SIGKILLed at random moments while indexing: after restarts the file is byte-identical to an uninterrupted run")
    func sigkillAndRestart() async throws {
        let setup = try Setup()
        let batches = [
            Array(setup.messages.prefix(4)), Array(setup.messages.dropFirst(4).prefix(4)),
            Array(setup.messages.dropFirst(8)),
        ]
        var generator = SystemRandomNumberGenerator()
        // Round 1 dies after Kafka committed its offsets but before any state was written: the
        // worker must not trust Kafka's offsets. Later rounds die at random moments while
        // writing every 0.2 s, so restarts resume from partly written state.
        for (round, batch) in batches.enumerated() {
            try await setup.cluster.producer.send(batch)
            if round == 0 {
                let worker = try setup.startWorker(writeInterval: "30", metricsInterval: "1")
                try await waitUntil("offsets committed (lag 0) with nothing written", timeout: .seconds(60)) {
                    worker.stdout.split(separator: "\n").contains { line in
                        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                            object["msg"] as? String == "metrics"
                        else { return false }
                        return (object["consumed"] as? Int ?? 0) >= batch.count && object["consumer_lag"] as? Int == 0
                    }
                }
                worker.signal(SIGKILL)
                _ = try await worker.waitForExit(timeout: .seconds(10))
                continue
            }
            let worker = try setup.startWorker()
            try await waitUntil("the worker to write an index", timeout: .seconds(60)) {
                setup.published?.files[IndexLayout.manifestPath] != nil
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...1_500, using: &generator)))
            worker.signal(SIGKILL)
            _ = try await worker.waitForExit(timeout: .seconds(10))
        }
        let last = try setup.startWorker()
        defer { last.stop() }
        try await setup.waitForExpectedIndex()
        await setup.cluster.shutdown()
    }

    @Test("two IndexWorkers on the same topics and output end with the same bytes as one")
    func twoInstances() async throws {
        let setup = try Setup()
        let first = try setup.startWorker()
        let second = try setup.startWorker()
        defer {
            first.stop()
            second.stop()
        }
        try await setup.cluster.producer.send(setup.messages)
        try await setup.waitForExpectedIndex()
        await setup.cluster.shutdown()
    }
}
