import Foundation

extension KafkaOffsetResetPlan {
    /// What a partition holds and where the group stands in it: the facts a plan is made from.
    package struct PartitionOffsets: Sendable, Equatable {
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

    /// Plans moving `group` to `target` in each partition: every target clamped to what the
    /// partition holds. `firstOffsetAtOrAfter` answers a time target (the partition's `high`
    /// when no message is that new); it is called only for `.dateTime`.
    package init(
        group: String, target: KafkaOffsetTarget, partitions: [PartitionOffsets],
        firstOffsetAtOrAfter: (Date, PartitionOffsets) throws -> Int64
    ) rethrows {
        let rows = try partitions.map { partition in
            let start = partition.committed ?? partition.low
            let wanted: Int64 =
                switch target {
                case .earliest: partition.low
                case .offset(let offset): offset
                // Saturating: a shift past either end only clamps to it.
                case .shift(let count):
                    start.addingReportingOverflow(count).overflow
                        ? (count > 0 ? Int64.max : Int64.min) : start + count
                case .dateTime(let date): try firstOffsetAtOrAfter(date, partition)
                }
            return Row(
                topicPartition: partition.topicPartition, low: partition.low, high: partition.high,
                committed: partition.committed, target: min(max(wanted, partition.low), partition.high))
        }
        self.init(group: group, target: target, rows: rows)
    }
}
