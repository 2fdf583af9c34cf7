import ArtpipeTestKit
import KafkaClient
import KafkaTestKit
import PipelineContract
import PipelineOperations
import Testing

/// Where `crawl --since last` starts, read from `artpipe.harvests` on the embedded broker.
@Suite("The last completed harvest of a query", .timeLimit(.minutes(2)))
struct LatestHarvestTests {
    static let source = "oai-pmh"
    static let query = ["endpoint": "http://127.0.0.1:1/oai", "set": "paintings"]

    static func mark(_ query: [String: String], through: String, crawl: String) -> HarvestMark {
        HarvestMark(source: source, query: query, crawlId: crawl, harvestedThrough: through, lastPageId: "p-\(crawl)")
    }

    @Test("the mark harvested furthest of the same query, whatever its window and whenever it was published")
    func latestOfTheQuery() async throws {
        let cluster = try TestCluster()
        try cluster.broker.createTopic(ArtpipeTopic.harvests, partitions: 1)
        let client = cluster.consumerClient
        #expect(
            try await HarvestMark.latest(
                of: Self.source, query: Self.query, client: client, timeout: .seconds(30), logger: .test) == nil)

        var windowed = Self.query
        windowed["from"] = "2026-03-01T00:00:00Z"
        let marks = [
            Self.mark(Self.query, through: "2026-03-01T00:00:00Z", crawl: "first"),
            Self.mark(windowed, through: "2026-06-01T00:00:00Z", crawl: "nightly"),
            // A slow harvest of an older window, completed last.
            Self.mark(Self.query, through: "2026-04-01T00:00:00Z", crawl: "slow"),
            // Another set's harvest, further still.
            Self.mark(Self.query.merging(["set": "prints"]) { $1 }, through: "2026-09-01T00:00:00Z", crawl: "prints"),
        ]
        try await cluster.producer.send(try marks.map { try MessageCodec.record($0, topic: ArtpipeTopic.harvests) })

        var asked = Self.query
        asked["until"] = "2026-12-01T00:00:00Z"
        let latest = try await HarvestMark.latest(
            of: Self.source, query: asked, client: client, timeout: .seconds(30), logger: .test)
        #expect(latest?.crawlId == "nightly")
        #expect(latest?.harvestedThrough == "2026-06-01T00:00:00Z")
        #expect(
            try await HarvestMark.latest(
                of: "rijksmuseum-oai", query: Self.query, client: client, timeout: .seconds(30), logger: .test) == nil)
        await cluster.shutdown()
    }
}
