import CKafka
import Foundation
import Logging

/// Reads every message a topic holds right now, outside any consumer group: for
/// status reports, which must not disturb the groups that consume the topic.
public enum KafkaTopicSnapshot {
    public static func read(
        _ topic: String, configuration: KafkaClientConfiguration, timeout: Duration, logger: Logger
    ) async throws -> [KafkaConsumerMessage] {
        let properties = configuration.clientProperties(
            clientIDSuffix: "snapshot", defaults: [("enable.partition.eof", "false"), ("enable.auto.commit", "false")],
            // librdkafka wants a group to assign partitions; it is never joined or committed to.
            fixed: [("group.id", "\(configuration.clientID)-snapshot-\(getpid())")])
        let client = try RDKafkaClient(
            type: RD_KAFKA_CONSUMER, properties: properties, callbacks: RDKafkaCallbacks(logger: logger))
        let milliseconds = Int32(timeout.milliseconds)
        return try await configuration.runBlocking {
            try read(topic, client: client, timeoutMilliseconds: milliseconds)
        }
    }

    private static func read(_ topic: String, client: RDKafkaClient, timeoutMilliseconds: Int32) throws
        -> [KafkaConsumerMessage]
    {
        let metadata = try client.metadata(timeoutMilliseconds: timeoutMilliseconds)
        guard let partitions = metadata.partitionsByTopic[topic] else {
            throw KafkaError("topic \(topic) does not exist")
        }
        var remaining: [Int32: Int64] = [:]
        var starts: [(KafkaTopicPartition, Int64?)] = []
        for partition in 0..<Int32(partitions) {
            var low: Int64 = 0
            var high: Int64 = 0
            let error = rd_kafka_query_watermark_offsets(
                client.handle, topic, partition, &low, &high, timeoutMilliseconds)
            guard error == RD_KAFKA_RESP_ERR_NO_ERROR else {
                throw KafkaError("cannot read the offsets of \(topic)/\(partition)", rdError: error)
            }
            if low < high {
                remaining[partition] = high
                starts.append((KafkaTopicPartition(topic: topic, partition: partition), low))
            }
        }
        guard !starts.isEmpty else { return [] }
        let assigned = RDKafkaTopicPartitionList.with(starts) { rd_kafka_assign(client.handle, $0) }
        guard assigned == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError("cannot read \(topic)", rdError: assigned)
        }
        defer { _ = rd_kafka_assign(client.handle, nil) }
        var messages: [KafkaConsumerMessage] = []
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeoutMilliseconds))
        while !remaining.isEmpty {
            guard ContinuousClock.now < deadline else {
                throw KafkaError("reading \(topic) took longer than \(timeoutMilliseconds) ms")
            }
            guard let raw = rd_kafka_consumer_poll(client.handle, 100) else { continue }
            defer { rd_kafka_message_destroy(raw) }
            guard raw.pointee.err == RD_KAFKA_RESP_ERR_NO_ERROR else { continue }
            let message = KafkaConsumer.convert(raw, topic: topic)
            messages.append(message)
            if let high = remaining[message.partition], message.offset + 1 >= high {
                remaining[message.partition] = nil
            }
        }
        return messages
    }
}
