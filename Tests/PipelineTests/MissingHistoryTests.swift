import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import IndexWorker
import KafkaClient
import KafkaTestKit
import PipelineContract
import Testing

/// A rebuild of the index from topics that no longer hold every page: as on a real Kafka whose
/// retention deleted old messages. The embedded broker drops a partition's oldest messages past
/// about 5 MiB, which moves its earliest offset the same way; compaction itself it cannot show.
@Suite("History missing from Kafka", .serialized, .timeLimit(.minutes(3)))
struct MissingHistoryTests {
    @Test(
        "an index rebuilt from a partition that lost its oldest pages holds it, assembles nothing, fails /healthz and shows in status; --accept-missing-history goes on"
    )
    func rebuildWithMissingHistory() async throws {
        let cluster = try TestCluster()
        for topic in ArtpipeTopic.all { try cluster.broker.createTopic(topic, partitions: 1) }
        // The bulk is in what the index does not keep (a record the source could not read), so
        // that only the pages topic passes the embedded broker's 5 MiB, not the index's topics.
        let padding = String(repeating: "an unreadable record ", count: 5_000)
        let pages = (1...70).map { number in
            var page = Page(
                request: PageRequest(crawlId: "c", source: "rijksmuseum", query: [:], page: number, pageSize: 1),
                total: 70,
                artworks: [
                    Artwork(
                        objectNumber: "SK-\(number)", title: "Work \(number)", artist: "A", imageURL: nil, width: nil,
                        height: nil, position: 0)
                ])
            page.unreadable = [UnreadableRecord(recordId: "r\(number)", reason: padding)]
            return page
        }
        for page in pages { try await cluster.producer.send(MessageCodec.record(page, topic: ArtpipeTopic.pages)) }
        let offsets = KafkaGroupOffsets(
            configuration: KafkaClientConfiguration(brokers: cluster.brokers), logger: .test)
        let earliest = try #require(try await offsets.positions(group: "probe", topics: [ArtpipeTopic.pages]).first).low
        try #require(earliest > 0, "the broker dropped the oldest pages")

        let output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("history"))
        func start(_ extra: [String] = []) throws -> ChildProcess {
            try ChildProcess(
                "artpipe",
                [
                    "index-worker", "--brokers", cluster.brokers, "--out", output.path, "--write-interval", "0.2",
                    "--http-port", "0", "--http-host", "127.0.0.1",
                ] + extra + EmbeddedBrokerSettings.flags)
        }
        let worker = try start()
        defer { worker.stop() }
        let port = try await WorkerEndpointTests.httpPort(of: worker)
        var answer = (status: 0, body: "")
        try await waitUntil("/healthz to report the missing history", timeout: .seconds(60)) {
            answer = try await WorkerEndpointTests.get("http://127.0.0.1:\(port)/healthz")
            return answer.status == 503
        }
        #expect(answer.body.contains("history missing") && answer.body.contains("offsets 0–\(earliest - 1)"))
        #expect(worker.stdout.contains("\"level\":\"critical\""), "logged as critical")
        let status = try ChildProcess("artpipe", ["status", "--brokers", cluster.brokers, "--out", output.path])
        #expect(try await status.waitForExit(timeout: .seconds(60)) == 0, "\(status.stderr)")
        #expect(status.stdout.contains("INDEX NOT PUBLISHED: artpipe.pages[0]"), "\(status.stdout)")
        for (group, topic) in [
            ("artpipe-index-works", ArtpipeTopic.indexWorks), ("artpipe-index-artists", ArtpipeTopic.indexArtists),
        ] {
            #expect(status.stdout.contains("  \(group)\t\(topic)\t"), "the index's own groups' lag: \(status.stdout)")
        }
        // At most the empty index a new folder starts with: none of the pages that remain.
        #expect((try? PublishedIndex.manifest(in: output))?.totals.works ?? 0 == 0, "no smaller index published")
        worker.signal(SIGTERM)
        #expect(try await worker.waitForExit(timeout: .seconds(40)) == 0)
        // Nothing of the partition was committed: a restart finds the gap again.
        let index = try await offsets.positions(group: PipelineStage.index.groupID, topics: [ArtpipeTopic.pages])
        #expect(index.map(\.committed) == [nil], "the held partition committed nothing")

        let accepting = try start(["--accept-missing-history"])
        defer { accepting.stop() }
        try await waitUntil("the index of the pages Kafka still holds", timeout: .seconds(60)) {
            (try? PublishedIndex.manifest(in: output))?.totals.works == pages.count - Int(earliest)
        }
        let status2 = try ChildProcess("artpipe", ["status", "--brokers", cluster.brokers, "--out", output.path])
        #expect(try await status2.waitForExit(timeout: .seconds(60)) == 0, "\(status2.stderr)")
        #expect(!status2.stdout.contains("INDEX NOT PUBLISHED"), "\(status2.stdout)")
        await cluster.shutdown()
    }
}
