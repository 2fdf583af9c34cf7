/// What a replay would do to a consumer group, partition by partition.
public struct KafkaOffsetResetPlan: Sendable {
    public struct Row: Sendable, Equatable {
        public let topicPartition: KafkaTopicPartition
        /// The oldest offset the partition holds and the offset after its newest message.
        public let low: Int64
        public let high: Int64
        /// The group's committed offset, nil if it has none.
        public let committed: Int64?
        public let target: Int64
    }

    public let group: String
    public let target: KafkaOffsetTarget
    public let rows: [Row]

    /// Messages the group will read again (negative when moving forward).
    public var messagesToReplay: Int64 {
        rows.map { ($0.committed ?? $0.low) - $0.target }.reduce(0, &+)
    }

    /// The plan as a table for people.
    public var text: String {
        var lines = ["group \(group): move to \(target)", "topic\tpartition\tlow\thigh\tcommitted\ttarget"]
        for row in rows {
            lines.append(
                "\(row.topicPartition.topic)\t\(row.topicPartition.partition)\t\(row.low)\t\(row.high)\t"
                    + "\(row.committed.map(String.init) ?? "-")\t\(row.target)")
        }
        lines.append("messages to read again: \(messagesToReplay)")
        return lines.joined(separator: "\n")
    }
}
