import Foundation

extension KafkaGroupOffsets {
    /// The first offset written at or after `date`. Brokers answer this lookup; the embedded
    /// one does not (it says "none" for every time), so then the messages themselves are read.
    static func offset(
        at date: Date, _ position: KafkaOffsetResetPlan.Position, client: RDKafkaClient,
        configuration: KafkaClientConfiguration, timeout: Int32
    ) throws -> Int64 {
        let (topicPartition, low, high) = (position.topicPartition, position.low, position.high)
        guard low < high else { return high }
        let milliseconds = Int64(date.timeIntervalSince1970 * 1_000)
        if let answered = try client.offset(atTime: milliseconds, topicPartition, timeoutMilliseconds: timeout) {
            return answered
        }
        // "None at or after": true only if the newest message is older.
        let reader = TimestampReader(configuration: configuration, logger: client.callbacks.logger, timeout: timeout)
        guard let newest = try reader.timestamp(of: high - 1, topicPartition), newest >= milliseconds else {
            return high
        }
        var (lower, upper) = (low, high - 1)
        while lower < upper {
            let middle = lower + (upper - lower) / 2
            let stamp = try reader.timestamp(of: middle, topicPartition) ?? 0
            if stamp >= milliseconds { upper = middle } else { lower = middle + 1 }
        }
        return lower
    }
}
