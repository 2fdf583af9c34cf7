import KafkaClient
import Logging
import PipelineContract

/// The pages stage's partitions this copy holds, each restored from `artpipe.index-pages`
/// once per assignment before it is used.
package actor PagePartitions {
    /// The step ``StageProgress`` waits for until a partition is restored.
    static let restoreStep = "restore \(ArtpipeTopic.indexPages)"

    private struct Held {
        var generation: Int
        var restore: Task<PagePartition, any Error>
        var state: PagePartition?
    }

    private var held: [Int: Held] = [:]
    /// Per partition, changes applied whose rows are not yet acknowledged by the broker.
    private var unacknowledged: [Int: Int] = [:]
    /// Partitions whose last send failed: what they hold may be ahead of the topics until a
    /// send succeeds again (the failed message is handled again).
    private var unsent: Set<Int> = []
    /// Summaries taken when their partition had every row acknowledged, for partitions that
    /// are seldom idle; and the partitions a publisher asked one of.
    private var settled: [Int: PagesSummary] = [:]
    private var wanted: Set<Int> = []
    private let kafka: KafkaClientConfiguration
    private let progress: StageProgress
    private let logger: Logger

    init(kafka: KafkaClientConfiguration, progress: StageProgress, logger: Logger) {
        (self.kafka, self.progress, self.logger) = (kafka, progress, logger)
    }

    /// The partition's state under the assignment `generation`, restored first if need be.
    func state(of partition: Int, generation: Int) async throws -> PagePartition {
        if let entry = held[partition], entry.generation == generation {
            if let state = entry.state { return state }
            return try await entry.restore.value
        }
        let (kafka, logger, progress) = (kafka, logger, progress)
        let restore = Task {
            let state = try await Self.restore(partition, kafka: kafka, logger: logger)
            progress.read(Self.restoreStep, partition: partition, upTo: 1)
            return state
        }
        held[partition] = Held(generation: generation, restore: restore)
        // What an earlier assignment left in flight or unsent is another owner's now: kept, a
        // failed send before a revoke held this partition's summary back for good once it came
        // back (a manifest that stopped counting pages, seen with copies coming and going).
        (unacknowledged[partition], settled[partition]) = (0, nil)
        unsent.remove(partition)
        let state = try await restore.value
        if held[partition]?.generation == generation, held[partition]?.state == nil { held[partition]?.state = state }
        return held[partition]?.state ?? state
    }

    /// Applies `change` to the partition's state; returns what it asks to write. The caller
    /// says with ``sent(_:succeeded:)`` whether the broker took it.
    func apply(
        to partition: Int, generation: Int, _ change: @Sendable (inout PagePartition) -> PagePartition.Writes
    ) async throws -> PagePartition.Writes {
        let restored = try await state(of: partition, generation: generation)
        // Read again after the wait: the partition's three input topics are handled side by
        // side, and another message may have changed the state meanwhile.
        var state = restored
        if held[partition]?.generation == generation, let current = held[partition]?.state {
            // Taken out, not copied: mutated while the dictionary still held it, every change
            // would copy the partition's whole state.
            held[partition]?.state = nil
            state = current
        }
        let writes = change(&state)
        if held[partition]?.generation == generation { held[partition]?.state = state }
        unacknowledged[partition, default: 0] += 1
        return writes
    }

    /// The rows of one change applied to `partition` were acknowledged, or could not be sent.
    func sent(_ partition: Int, succeeded: Bool) {
        // Never below zero: a change of an earlier assignment may settle after the reset.
        unacknowledged[partition] = max(unacknowledged[partition, default: 1] - 1, 0)
        if succeeded { unsent.remove(partition) } else { unsent.insert(partition) }
        if wanted.contains(partition), let summary = settledSummary(of: partition) {
            settled[partition] = summary
            wanted.remove(partition)
        }
    }

    private func settledSummary(of partition: Int) -> PagesSummary? {
        guard unacknowledged[partition, default: 0] == 0, !unsent.contains(partition) else { return nil }
        return held[partition]?.state?.summary
    }

    /// The summaries of the partitions in `partitions` that are restored and whose every row
    /// is acknowledged: the topics hold all that the summaries count.
    /// A partition busy now gives the one taken the last time it was idle, and is asked for one
    /// at its next idle moment.
    func summaries(of partitions: Set<Int>) -> [PagesSummary] {
        settled = settled.filter { partitions.contains($0.key) }
        wanted = wanted.intersection(partitions)
        return partitions.sorted().compactMap { partition in
            if let summary = settledSummary(of: partition) {
                settled[partition] = summary
                return summary
            }
            wanted.insert(partition)
            return settled[partition]
        }
    }

    private static func restore(_ partition: Int, kafka: KafkaClientConfiguration, logger: Logger) async throws
        -> PagePartition
    {
        let collected = Collected(partition: partition)
        try await KafkaTopicSnapshot.scan(
            ArtpipeTopic.indexPages, from: [Int32(partition): 0], configuration: kafka, timeout: .seconds(600),
            logger: logger
        ) { message in
            if let entry = try? IndexTopicRecords.pageEntry(message) { collected.state.restore(entry) }
        }
        logger.info(
            "pages partition restored",
            metadata: ["kafka.partition": "\(partition)", "pages": "\(collected.state.entries.count)"])
        return collected.state
    }

    /// What a restore collects; only the blocking thread that scans touches it.
    private final class Collected: @unchecked Sendable {
        var state: PagePartition
        init(partition: Int) { state = PagePartition(partition: partition) }
    }
}
