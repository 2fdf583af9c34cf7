import CKafka
import Foundation

/// Reads single messages by offset, for their timestamps.
enum TimestampReader {
    /// The timestamp (ms since the epoch) of the message at `offset`, or of the next one
    /// after it; nil when none arrives.
    static func timestamp(
        of offset: Int64, _ topicPartition: KafkaTopicPartition, client: RDKafkaClient, timeout: Int32
    ) throws -> Int64? {
        guard
            let reader = try? RDKafkaClient(
                type: RD_KAFKA_CONSUMER,
                properties: [
                    ("bootstrap.servers", brokers(client)), ("enable.partition.eof", "false"),
                    ("enable.auto.commit", "false"), ("group.id", "artpipe-timestamps-\(getpid())"),
                ],
                callbacks: client.callbacks)
        else { return nil }
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

    private static func brokers(_ client: RDKafkaClient) -> String {
        var value = [CChar](repeating: 0, count: 1_024)
        var size = value.count
        // The configuration the client was made with: read back rather than passed around.
        guard let conf = rd_kafka_conf(client.handle),
            rd_kafka_conf_get(conf, "bootstrap.servers", &value, &size) == RD_KAFKA_CONF_OK
        else { return "" }
        return String(errorBuffer: value)
    }
}
