import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import HTTPTestKit
import KafkaClient
import Logging
import PipelineContract
import SampleCollection
import Testing

/// A passing fault never becomes a lost page: pages wait on the retry topics and complete
/// once the museum answers again, with no replay and no dead letter.
@Suite("Pages that fail for the moment", .serialized, .timeLimit(.minutes(5)))
struct TransientFailureTests {
    /// The retry copies of page requests now on the retry topics, with their state.
    static func retryCopies(_ run: PipelineRun) async throws -> [(pageId: String, state: RetryState)] {
        let client = KafkaClientConfiguration(brokers: run.brokers)
        var copies: [(String, RetryState)] = []
        for topic in ArtpipeTopic.pageRequestRetries {
            for message in try await KafkaTopicSnapshot.read(
                topic, configuration: client, timeout: .seconds(30), logger: .test)
            {
                if let state = RetryState(headers: message.headers) { copies.append((message.keyString ?? "", state)) }
            }
        }
        return copies
    }

    static func expectNoDeadLetters(_ run: PipelineRun) async throws {
        let letters = try await KafkaTopicSnapshot.read(
            ArtpipeTopic.deadLetters, configuration: KafkaClientConfiguration(brokers: run.brokers),
            timeout: .seconds(30), logger: .test)
        #expect(letters.isEmpty, "\(letters.map { $0.headers.value(of: DeadLetter.errorHeader) ?? "" })")
    }

    @Test(
        "the API down far longer than a request's retries, then a maintenance page with 200: every page completes once it is back"
    )
    func apiOutage() async throws {
        var faults = SampleServerFaults()
        // The crawl's count and two pages are answered; then the API is down (images are another host).
        faults.outageAfterAPIRequests = 3
        let sample = try await SampleServerHandle.start(ReferenceRun.configuration, faults: faults)
        let run = try PipelineRun(sample: sample)
        run.fetchWorkerFlags = ["--retry-delays", "1s,2s,2s", "--retry-for", "1h"]
        defer { run.killWorkers() }
        try run.startWorkers()
        try await run.crawl()

        // A page's second failure on the retry topics: it has outlasted two rounds of the
        // fetcher's own retries (five attempts each, seconds of backoff).
        try await waitUntil("a page failing for the second time", timeout: .seconds(90)) {
            try await Self.retryCopies(run).contains { $0.state.attempts >= 2 }
        }
        let status = try await run.status()
        #expect(status.contains("waiting for a retry"), "\(status)")
        #expect(status.contains("  retry   "), "\(status)")
        #expect(status.contains("HTTP 503"), "\(status)")

        sample.server.setOutage(.maintenancePage)
        try await waitUntil("a page failing on the maintenance page", timeout: .seconds(60)) {
            try await Self.retryCopies(run).contains { $0.state.lastReason.contains("is not JSON") }
        }
        sample.server.setOutage(nil)

        let (index, _) = try await run.waitForCompletion(timeout: .seconds(120))
        let problems = GroundTruth.mismatches(index, collection: sample.collection, output: run.output)
        #expect(problems.isEmpty, "\(problems.prefix(10))")
        try await Self.expectNoDeadLetters(run)
        try await run.expectCleanStop()
        await sample.stop()
    }

    @Test(
        "429 with Retry-After: 600 (shortened by a flag): nothing is sent to the API until it is over, then the pages complete"
    )
    func rateLimited() async throws {
        var faults = SampleServerFaults()
        // After the crawl's count and the first page.
        faults.rateLimitedAPIRequests = [3]
        faults.rateLimitRetryAfter = 600
        let sample = try await SampleServerHandle.start(ReferenceRun.configuration, faults: faults)
        let run = try PipelineRun(sample: sample)
        // 600 s × 0.01 = 6 s, longer than a request waits in place: the pages wait on the retry topics.
        run.fetchWorkerFlags = [
            "--retry-after-scale", "0.01", "--max-wait-in-place", "1s", "--retry-delays", "1s,2s,3s",
        ]
        defer { run.killWorkers() }
        try run.startWorkers()
        try await run.crawl()
        let (index, _) = try await run.waitForCompletion(timeout: .seconds(120))
        let problems = GroundTruth.mismatches(index, collection: sample.collection, output: run.output)
        #expect(problems.isEmpty, "\(problems.prefix(10))")
        try await Self.expectNoDeadLetters(run)

        let arrivals = sample.server.apiRequestArrivals
        try #require(arrivals.count > 3)
        let limited = arrivals[2]
        // Requests already on their way when the 429 left may still arrive just after it.
        let early = arrivals.filter { $0 > limited + .milliseconds(500) && $0 < limited + .seconds(6) }
        #expect(early.isEmpty, "\(early.count) API requests during the 6 s the API asked for")
        let copies = try await Self.retryCopies(run)
        #expect(copies.contains { $0.state.lastReason.contains("HTTP 429") }, "\(copies.map(\.state.lastReason))")
        try await run.expectCleanStop()
        await sample.stop()
    }
}
