import Foundation
import Logging

/// Reads single messages by offset, for their timestamps, with the same connection settings
/// (TLS, SASL) as every other client.
struct TimestampReader {
    let configuration: KafkaClientConfiguration
    let logger: Logger
    /// Milliseconds to wait for one message.
    let timeout: Int32

    /// The timestamp (ms since the epoch) of the message at `offset`, or of the next one
    /// after it; nil when none arrives.
    func timestamp(of offset: Int64, _ topicPartition: KafkaTopicPartition) throws -> Int64? {
        let reader = try RDKafkaClient(
            type: .consumer,
            properties: configuration.clientProperties(
                clientIDSuffix: "timestamps",
                defaults: [("enable.partition.eof", "false"), ("enable.auto.commit", "false")],
                fixed: [("group.id", "\(configuration.clientID)-timestamps-\(getpid())")]),
            callbacks: RDKafkaCallbacks(logger: logger))
        try reader.assign([(topicPartition, offset)])
        defer { reader.unassign() }
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout))
        while ContinuousClock.now < deadline {
            guard let message = reader.pollMessage(of: topicPartition.topic, timeoutMilliseconds: 100) else { continue }
            return message.timestampMilliseconds ?? -1
        }
        return nil
    }
}
