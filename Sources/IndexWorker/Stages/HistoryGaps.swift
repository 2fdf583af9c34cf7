import KafkaClient
import Logging
import Metrics
import PipelineContract
import Synchronization

/// The pages stage's partitions whose state topics no longer hold what the index needs
/// (``MissingHistory``): each is held back, neither handled nor committed, so the gap stays
/// visible to `artpipe status` (which finds it the same way, from the group's offsets) and to
/// the next copy, and the index is not assembled while one is known. Accepted gaps
/// (`--accept-missing-history`) are logged and let go.
package final class HistoryGaps: Sendable {
    private let gaps = Mutex<[KafkaTopicPartition: MissingHistory]>([:])
    private let accepts: Bool
    private let logger: Logger
    private let gauge = Gauge(label: "index_history_missing_partitions", dimensions: [("worker", "index")])

    package init(accepts: Bool, logger: Logger) {
        (self.accepts, self.logger) = (accepts, logger)
    }

    /// Looks at a partition being assigned: where the group stands (`committed`; none means
    /// the start) against the oldest offset the partition holds.
    func check(_ topicPartition: KafkaTopicPartition, committed: Int64?, earliest: Int64?) {
        guard let gap = MissingHistory.gap(in: topicPartition, committed: committed, earliest: earliest) else {
            forget([topicPartition])
            return
        }
        let metadata: Logger.Metadata = ["kafka.partition": "\(topicPartition)", "reason": "\(gap)"]
        if accepts {
            logger.warning(
                "history missing, accepted (--accept-missing-history): the index goes on without those pages",
                metadata: metadata)
            forget([topicPartition])
            return
        }
        logger.critical(
            "history missing: the partition is held and the index is not assembled until it is resolved (see docs/operations.md)",
            metadata: metadata)
        gaps.withLock { $0[topicPartition] = gap }
        gauge.record(all.count)
    }

    /// Whether the partition number `partition` is held: all three inputs of a page partition
    /// wait together.
    func holds(_ partition: Int32) -> Bool {
        gaps.withLock { gaps in gaps.keys.contains { $0.partition == partition } }
    }

    func revoked(_ topicPartitions: [KafkaTopicPartition]) {
        forget(topicPartitions)
    }

    private func forget(_ topicPartitions: [KafkaTopicPartition]) {
        gaps.withLock { gaps in for topicPartition in topicPartitions { gaps[topicPartition] = nil } }
        gauge.record(all.count)
    }

    /// The gaps known now, oldest partition first.
    package var all: [MissingHistory] {
        gaps.withLock { Array($0.values) }.sorted { ($0.topic, $0.partition) < ($1.topic, $1.partition) }
    }
}
