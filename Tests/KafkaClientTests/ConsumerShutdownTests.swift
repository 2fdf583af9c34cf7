import ArtpipeTestKit
import Foundation
import KafkaClient
import KafkaTestKit
import Testing

@Suite("Consumer shutdown", .serialized, .timeLimit(.minutes(2)))
struct ConsumerShutdownTests {
    @Test(
        "a message still being handled holds a shutdown up for the drain timeout once, not once more when the consumer closes"
    )
    func drainTimeoutOnce() async throws {
        let cluster = try TestCluster()
        let topic = try cluster.makeTopic("stuck", partitions: 1)
        try await cluster.produce(to: topic, 0..<3)
        var configuration = cluster.consumerConfiguration()
        configuration.drainTimeout = .seconds(4)
        let consumer = try KafkaConsumer(configuration: configuration, logger: .test)
        try consumer.subscribe(topics: [topic])
        let running = Task { try await consumer.run() }
        var iterator = consumer.batches.makeAsyncIterator()
        let batch = try #require(await iterator.next())
        // A handler that never finishes.
        #expect(batch.lease.beginHandling())

        let start = ContinuousClock.now
        consumer.shutdown()
        try await running.value
        let elapsed = start.duration(to: .now)
        await cluster.shutdown()
        #expect(elapsed >= .seconds(4), "the message being handled was waited for: \(elapsed)")
        #expect(elapsed < .seconds(8), "waited the 4 s drain timeout twice: \(elapsed)")
    }
}
