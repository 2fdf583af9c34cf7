import CKafka
import Foundation

/// Reads single messages by offset, for their timestamps, with the same connection settings
/// (TLS, SASL) as every other client.
struct TimestampReader {
    let configuration: KafkaClientConfiguration
    let callbacks: RDKafkaCallbacks
    /// Milliseconds to wait for one message.
    let timeout: Int32

    /// The timestamp (ms since the epoch) of the message at `offset`, or of the next one
    /// after it; nil when none arrives.
    func timestamp(of offset: Int64, _ topicPartition: KafkaTopicPartition) throws -> Int64? {
        let reader = try RDKafkaClient(
            type: RD_KAFKA_CONSUMER,
            properties: configuration.clientProperties(
                clientIDSuffix: "timestamps",
                defaults: [("enable.partition.eof", "false"), ("enable.auto.commit", "false")],
                fixed: [("group.id", "\(configuration.clientID)-timestamps-\(getpid())")]),
            callbacks: callbacks)
        let assigned = RDKafkaTopicPartitionList.with([(topicPartition, offset)]) { rd_kafka_assign(reader.handle, $0) }
        guard assigned == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError("cannot read \(topicPartition)", rdError: assigned)
        }
        defer { _ = rd_kafka_assign(reader.handle, nil) }
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout))
        while ContinuousClock.now < deadline {
            guard let message = rd_kafka_consumer_poll(reader.handle, 100) else { continue }
            defer { rd_kafka_message_destroy(message) }
            guard message.pointee.err == RD_KAFKA_RESP_ERR_NO_ERROR else { continue }
            var type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE
            return rd_kafka_message_timestamp(message, &type)
        }
        return nil
    }
}
