import Foundation

/// Finds the first offset at or after a time by reading messages' timestamps: for brokers that
/// do not answer that lookup (the embedded one says "none" for every time). Reads with the same
/// connection settings (TLS, SASL) as every other client.
struct TimestampReader {
    let configuration: KafkaClientConfiguration
    let callbacks: RDKafkaCallbacks
    /// Milliseconds to wait for one message.
    let timeout: Int32

    /// The first offset in `low..<high` whose message is stamped at or after `milliseconds`;
    /// `high` when none is. A binary search: timestamps of one partition only grow.
    func firstOffset(atOrAfter milliseconds: Int64, _ topicPartition: KafkaTopicPartition, low: Int64, high: Int64)
        throws -> Int64
    {
        guard low < high else { return high }
        guard let newest = try timestamp(of: high - 1, topicPartition), newest >= milliseconds else {
            return high
        }
        var (lower, upper) = (low, high - 1)
        while lower < upper {
            let middle = lower + (upper - lower) / 2
            let stamp = try timestamp(of: middle, topicPartition) ?? 0
            if stamp >= milliseconds { upper = middle } else { lower = middle + 1 }
        }
        return lower
    }

    /// The timestamp (ms since the epoch) of the message at `offset`, or of the next one
    /// after it; nil when none arrives.
    func timestamp(of offset: Int64, _ topicPartition: KafkaTopicPartition) throws -> Int64? {
        let reader = try RDKafkaClient(
            kind: .consumer,
            properties: configuration.clientProperties(
                clientIDSuffix: "timestamps",
                defaults: [("enable.partition.eof", "false"), ("enable.auto.commit", "false")],
                fixed: [("group.id", "\(configuration.clientID)-timestamps-\(getpid())")]),
            callbacks: callbacks)
        try reader.assign([(topicPartition, offset)])
        defer { reader.unassignAll() }
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout))
        while ContinuousClock.now < deadline {
            if let stamp = reader.pollConsumer(timeoutMilliseconds: 100, { $0.timestampMilliseconds }) {
                return stamp
            }
        }
        return nil
    }
}
