import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import HTTPTestKit
import KafkaClient
import KafkaTestKit
import PipelineContract
import SampleCollection
import Testing

/// A cursor-paged harvest (OAI-PMH, the default source) through real `crawl`, `fetch-worker`
/// and `replay` processes: whatever is repeated, each page's successor is requested once.
@Suite("Cursor chains through replays and crashes", .serialized, .timeLimit(.minutes(4)))
struct CursorChainTests {
    /// 16 × 100 works less the repeats: 8 OAI-PMH pages of 200.
    static func configuration() -> SampleCollection.Configuration {
        var configuration = SampleCollection.Configuration()
        configuration.seed = 26
        configuration.pages = 16
        return configuration
    }

    static let oaiPages = 8

    struct Harness {
        let cluster: TestCluster
        let server: SampleServerHandle
        let offsets: KafkaGroupOffsets

        static func start(faults: SampleServerFaults = .init()) async throws -> Harness {
            let cluster = try TestCluster()
            for topic in ArtpipeTopic.all { try cluster.broker.createTopic(topic, partitions: 3) }
            let server = try await SampleServerHandle.start(CursorChainTests.configuration(), faults: faults)
            return Harness(
                cluster: cluster, server: server,
                offsets: KafkaGroupOffsets(
                    configuration: KafkaClientConfiguration(brokers: cluster.brokers), logger: .test))
        }

        func run(_ arguments: [String]) async throws -> ChildProcess {
            let process = try ChildProcess("artpipe", arguments)
            let status = try await process.waitForExit(timeout: .seconds(90))
            #expect(status == 0, "artpipe \(arguments.first ?? ""): \(process.stderr)")
            return process
        }

        func crawl() async throws {
            _ = try await run(
                ["crawl", "--brokers", cluster.brokers, "--source", "rijksmuseum-oai", "--base-url", server.baseURL])
        }

        func fetchWorker() throws -> ChildProcess {
            try ChildProcess(
                "artpipe",
                ["fetch-worker", "--brokers", cluster.brokers, "--base-url", server.baseURL]
                    + EmbeddedBrokerSettings.flags)
        }

        /// Waits until the fetch group has handled every page request there is: nothing is then
        /// in flight, so no further request can appear.
        func waitUntilFetched(_ what: String) async throws {
            try await waitUntil(what, timeout: .seconds(120), pollEvery: .milliseconds(200)) {
                let rows = try await offsets.positions(group: "artpipe-fetch", topics: [ArtpipeTopic.pageRequests])
                return rows.allSatisfy { ($0.committed ?? $0.low) == $0.high } && rows.contains { $0.high > 0 }
            }
        }

        func pageRequests() async throws -> [PageRequest] {
            try await KafkaTopicSnapshot.read(
                ArtpipeTopic.pageRequests, configuration: KafkaClientConfiguration(brokers: cluster.brokers),
                timeout: .seconds(30), logger: .test
            ).map { try MessageCodec.decode(PageRequest.self, from: $0) }
        }

        func stop() async {
            await server.stop()
            await cluster.shutdown()
        }
    }

    @Test("a replay of a finished harvest fetches each page once more, and no more")
    func replayFetchesEachPageOnce() async throws {
        let harness = try await Harness.start()
        try await harness.crawl()
        let worker = try harness.fetchWorker()
        defer { worker.stop() }
        try await harness.waitUntilFetched("the harvest")
        let harvested = harness.server.server.requestsServed
        #expect(harvested == Self.oaiPages + 1, "the crawl's count, then one request a page")
        worker.signal(SIGTERM)
        #expect(try await worker.waitForExit(timeout: .seconds(40)) == 0)

        _ = try await harness.run(
            [
                "replay", "--brokers", harness.cluster.brokers, "--group", "artpipe-fetch", "--topic",
                ArtpipeTopic.pageRequests, "--to-earliest", "--execute",
            ] + EmbeddedBrokerSettings.flags)
        let again = try harness.fetchWorker()
        defer { again.stop() }
        try await harness.waitUntilFetched("the replay")
        // A fetch beyond one a page is a redelivery, which only a rebalance during the replay
        // (a second assignment, under a loaded machine's stalls) may bring.
        let replayed = harness.server.server.requestsServed - harvested
        let requests = try await harness.pageRequests()
        #expect(requests.count == Self.oaiPages, "no page requested twice: \(requests.map(\.page).sorted())")
        again.signal(SIGTERM)
        #expect(try await again.waitForExit(timeout: .seconds(40)) == 0)
        // Its log (JSON lines on stdout) read whole, once it has exited.
        let assignments = again.stdout.components(separatedBy: "partitions assigned").count - 1
        #expect(assignments >= 1, "the worker logs its assignments: \(again.stdout.suffix(2_000))")
        #expect(
            assignments > 1 ? (Self.oaiPages...2 * Self.oaiPages).contains(replayed) : replayed == Self.oaiPages,
            "each page once more: \(replayed) fetches, \(assignments) assignments; the worker printed: \(again.stdout.suffix(4_000))"
        )
        await harness.stop()
    }

    @Test("a SIGKILL mid-harvest costs the redelivered pages only: no page is requested twice")
    func killMidHarvest() async throws {
        var faults = SampleServerFaults()
        // Slow enough that the kill lands between the first pages and the last.
        faults.latency = .milliseconds(300)
        let harness = try await Harness.start(faults: faults)
        try await harness.crawl()
        let worker = try harness.fetchWorker()
        defer { worker.stop() }
        try await waitUntil("three pages fetched", timeout: .seconds(60), pollEvery: .milliseconds(20)) {
            harness.server.server.requestsServed >= 4
        }
        worker.signal(SIGKILL)
        _ = try await worker.waitForExit(timeout: .seconds(10))
        let restarted = try harness.fetchWorker()
        defer { restarted.stop() }
        try await harness.waitUntilFetched("the rest of the harvest")
        let requests = try await harness.pageRequests()
        #expect(
            requests.map(\.page).sorted() == Array(1...Self.oaiPages),
            "each page requested once: \(requests.map(\.page).sorted())")
        // Every fetch beyond one a page is a redelivered request, at most one per page.
        #expect(harness.server.server.requestsServed <= 1 + 2 * Self.oaiPages)
        restarted.signal(SIGTERM)
        #expect(try await restarted.waitForExit(timeout: .seconds(40)) == 0)
        await harness.stop()
    }
}
