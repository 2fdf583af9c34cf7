import ArtpipeTestKit
import KafkaClient
import Logging

/// Reads a topic from the beginning with a consumer group of its own, until `count`
/// messages arrived or `timeout` passed.
package func readTopic(
    _ topic: String, brokers: String, count: Int, timeout: Duration, logger: Logger = .test
) async throws -> [KafkaConsumerMessage] {
    var configuration = KafkaConsumerConfiguration(
        client: KafkaClientConfiguration(brokers: brokers, properties: ["session.timeout.ms": "6000"]),
        groupID: UniqueName.make("reader"))
    configuration.drainTimeout = .seconds(1)
    let consumer = try KafkaConsumer(configuration: configuration, logger: logger)
    try consumer.subscribe(topics: [topic])
    return try await withThrowingTaskGroup(of: [KafkaConsumerMessage]?.self) { group in
        group.addTask {
            try await consumer.run()
            return nil
        }
        group.addTask {
            var messages: [KafkaConsumerMessage] = []
            for await batch in consumer.batches {
                for message in batch.messages where batch.lease.beginHandling() {
                    messages.append(message)
                    batch.lease.finishHandling(offset: message.offset)
                }
                batch.release()
                if messages.count >= count { break }
            }
            consumer.shutdown()
            return messages
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            consumer.shutdown()
            return nil
        }
        var result: [KafkaConsumerMessage] = []
        for try await messages in group {
            if let messages {
                result = messages
                group.cancelAll()
            }
        }
        return result
    }
}
