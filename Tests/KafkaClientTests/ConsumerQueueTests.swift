import ArtpipeTestKit
import Foundation
import KafkaTestKit
import Logging
import Testing

@testable import KafkaClient

@Suite("The consumer queue, through the embedded broker", .timeLimit(.minutes(2)))
struct ConsumerQueueTests {
    /// A batch used to wait out its whole timeout unless it filled, so one new message waited
    /// the poll's full timeout at every stage. Here the timeout (90 s) is far beyond the
    /// deadline (45 s): only a batch that returns once something arrived meets it.
    @Test("a batch returns as soon as a message is queued, not when its timeout ends")
    func returnsOnFirstMessage() async throws {
        let cluster = try TestCluster()
        let topic = try cluster.makeTopic("trickle", partitions: 1)
        try await cluster.produce(to: topic, 0..<3)
        let client = try RDKafkaClient(
            type: .consumer,
            properties: [("bootstrap.servers", cluster.brokers), ("group.id", UniqueName.make("queue"))],
            callbacks: RDKafkaCallbacks(logger: .test))
        try client.assign([(KafkaTopicPartition(topic: topic, partition: 0), 0)])
        let started = ContinuousClock.now
        let values: [String] = try await withCheckedThrowingContinuation { continuation in
            // A blocking C call: on its own thread, never the cooperative pool.
            Thread {
                guard let queue = client.consumerQueue() else {
                    continuation.resume(throwing: KafkaError("no consumer queue"))
                    return
                }
                var values: [String] = []
                while values.count < 3 {
                    values += queue.consumeBatch(timeoutMilliseconds: 90_000) { _ in }
                        .map { String(decoding: $0.value, as: UTF8.self) }
                }
                continuation.resume(returning: values)
            }.start()
        }
        #expect(values == ["v0", "v1", "v2"])
        #expect(ContinuousClock.now - started < .seconds(45))
        client.unassign()
        await cluster.shutdown()
    }
}
