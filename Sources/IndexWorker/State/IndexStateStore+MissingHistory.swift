import ArtpipeSupport
import Foundation
import KafkaClient

extension IndexStateStore {
    /// The gaps of the partitions this instance owns: while there is one, the index is not published.
    package var missingHistory: [MissingHistory] {
        owned.withLock { $0.values.compactMap(\.missingHistory) }.sorted {
            ($0.topic, $0.partition) < ($1.topic, $1.partition)
        }
    }

    /// The gap between what the state needs and what the partition holds, recorded and logged;
    /// nil when there is none, or it is accepted.
    func checkHistory(_ topicPartition: KafkaTopicPartition, needed: Int64, earliest: Int64?) -> MissingHistory? {
        guard let earliest, earliest > needed else {
            forgetMissingHistory(topicPartition)
            return nil
        }
        let gap = MissingHistory(
            topic: topicPartition.topic, partition: topicPartition.partition, needed: needed, earliest: earliest)
        if acceptsMissingHistory {
            logger.warning(
                "history missing, accepted (--accept-missing-history): the index goes on without those pages",
                metadata: ["kafka.partition": "\(topicPartition)", "reason": "\(gap)"])
            forgetMissingHistory(topicPartition)
            return nil
        }
        logger.critical(
            "history missing: the index is not published until it is resolved (see docs/operations.md)",
            metadata: ["kafka.partition": "\(topicPartition)", "reason": "\(gap)"])
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try AtomicFile.write(
                try encoder.encode(gap),
                to: directory.appendingPathComponent(MissingHistory.fileName(topicPartition)))
        } catch {
            logger.error("cannot record the missing history", metadata: ["error": "\(error)"])
        }
        return gap
    }

    func forgetMissingHistory(_ topicPartition: KafkaTopicPartition) {
        unlink(directory.appendingPathComponent(MissingHistory.fileName(topicPartition)).path)
    }
}
