/// What a replay would do to a consumer group, partition by partition.
package struct KafkaOffsetResetPlan: Sendable {
    package struct Row: Sendable, Equatable {
        package let topicPartition: KafkaTopicPartition
        /// The oldest offset the partition holds and the offset after its newest message.
        package let low: Int64
        package let high: Int64
        /// The group's committed offset, nil if it has none.
        package let committed: Int64?
        package let target: Int64
    }

    package let group: String
    package let target: KafkaOffsetTarget
    package let rows: [Row]

    /// Messages the group will read again (negative when moving forward).
    package var messagesToReplay: Int64 {
        rows.map { ($0.committed ?? $0.low) - $0.target }.reduce(0, &+)
    }

    /// The plan as a table for people.
    package var text: String {
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
