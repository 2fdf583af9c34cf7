import Foundation

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

    /// Where one partition stands before the move: what a plan is made from.
    package struct Position: Sendable, Equatable {
        package let topicPartition: KafkaTopicPartition
        package let low: Int64
        package let high: Int64
        package let committed: Int64?

        package init(topicPartition: KafkaTopicPartition, low: Int64, high: Int64, committed: Int64?) {
            self.topicPartition = topicPartition
            self.low = low
            self.high = high
            self.committed = committed
        }
    }

    package let group: String
    package let target: KafkaOffsetTarget
    package let rows: [Row]

    /// Plans the move of every partition to `target`, clamped to what the partition holds.
    /// Reads nothing itself: `offsetAt` answers a ``KafkaOffsetTarget/dateTime(_:)`` target
    /// for one partition (the first offset at or after the date), and is called only for one.
    package init(
        group: String, target: KafkaOffsetTarget, positions: [Position],
        offsetAt: (Position, Date) throws -> Int64
    ) rethrows {
        self.group = group
        self.target = target
        self.rows = try positions.map { position in
            let start = position.committed ?? position.low
            let wanted: Int64 =
                switch target {
                case .earliest: position.low
                case .offset(let offset): offset
                // Saturating: a shift past either end only clamps to it.
                case .shift(let count):
                    start.addingReportingOverflow(count).overflow ? (count > 0 ? Int64.max : Int64.min) : start + count
                case .dateTime(let date): try offsetAt(position, date)
                }
            return Row(
                topicPartition: position.topicPartition, low: position.low, high: position.high,
                committed: position.committed, target: min(max(wanted, position.low), position.high))
        }
    }

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
