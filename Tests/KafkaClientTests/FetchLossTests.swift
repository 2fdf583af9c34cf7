import ArtpipeTestKit
import Foundation
import KafkaClient
import KafkaTestKit
import Logging
import Synchronization
import Testing

/// ``KafkaDeliveryContinuity`` through a real broker: the consumer's hook leaves offsets out of
/// fetched batches as the fetches on Tansu did, and the messages must still all arrive.
@Suite("Messages a fetch loses, through the embedded broker", .serialized, .timeLimit(.minutes(2)))
struct FetchLossTests {
    /// Consumes `count` messages of a one-partition topic with `fetchLoss`, and returns the
    /// offsets delivered, in order, and what was logged at info and above.
    func consume(
        count: Int, fetchLoss: @escaping @Sendable (KafkaTopicPartition, [Int64]) -> Set<Int64>,
        until done: @escaping ([Int64]) -> Bool
    ) async throws -> (offsets: [Int64], logs: [LoggedLine]) {
        let cluster = try TestCluster()
        let topic = try cluster.makeTopic("lossy", partitions: 1)
        try await cluster.produce(to: topic, 0..<count)
        var configuration = cluster.consumerConfiguration()
        configuration.fetchLoss = fetchLoss
        let lines = LoggedLines()
        let consumer = try KafkaConsumer(
            configuration: configuration, logger: Logger(label: "fetch-loss") { _ in lines })
        try consumer.subscribe(topics: [topic])
        let running = Task { try await consumer.run() }
        var offsets: [Int64] = []
        for await batch in consumer.batches {
            offsets += batch.messages.map(\.offset)
            batch.release()
            if done(offsets) { break }
        }
        consumer.shutdown()
        try await running.value
        await cluster.shutdown()
        return (offsets, lines.lines)
    }

    @Test("offsets a fetch left out inside a batch are fetched again: every message once, in order, and a warning")
    func lostOnceIsFetchedAgain() async throws {
        let dropped = Mutex(false)
        let (offsets, logs) = try await consume(
            count: 300,
            fetchLoss: { _, offsets in
                // Once, from the first batch that has them: the fetch again brings them.
                dropped.withLock { done in
                    guard !done, offsets.contains(120) else { return [] }
                    done = true
                    return Set(offsets.filter { (120...139).contains($0) })
                }
            }, until: { $0.last == 299 })
        #expect(offsets == Array(0..<300))
        #expect(
            logs.contains {
                $0.level == .warning && $0.message.hasPrefix("a fetch had skipped offsets")
                    && $0.metadata["kafka.offsets"] == "120...139"
            }, "\(logs)")
    }

    @Test("an offset every fetch leaves out is taken as the log's gap: the rest delivered, the gap named")
    func lostEveryTimeIsNamed() async throws {
        let (offsets, logs) = try await consume(
            count: 300, fetchLoss: { _, offsets in offsets.contains(150) ? [150] : [] },
            until: { $0.last == 299 })
        #expect(offsets == Array(0..<150) + Array(151..<300))
        #expect(
            logs.contains {
                $0.level == .info && $0.message.hasPrefix("offsets absent from the log")
                    && $0.metadata["kafka.offsets"] == "150...150"
            }, "\(logs)")
        #expect(!logs.contains { $0.level == .warning && $0.message.hasPrefix("a fetch had skipped") })
    }
}
