import ArtpipeSupport
import KafkaClient
import Logging
import NIOPosix
import PipelineContract

/// The pages stage's partitions this copy holds, each restored from `artpipe.index-pages`
/// once per assignment before it is used; their entries in a ``PageEntryFile`` on the copy's
/// disk (in memory without one), their outlines here.
package actor PagePartitions {
    /// The step ``StageProgress`` waits for until a partition is restored.
    static let restoreStep = "restore \(ArtpipeTopic.indexPages)"

    private struct Held {
        var generation: Int
        var restore: Task<PagePartition, any Error>
        var state: PagePartition?
    }

    /// A message's change applied to a partition's state, until its rows are settled.
    package struct Change: Hashable, Sendable {
        var topicPartition: KafkaTopicPartition
        var offset: Int64

        package init(_ message: KafkaConsumerMessage) {
            (topicPartition, offset) = (
                KafkaTopicPartition(topic: message.topic, partition: message.partition), message.offset
            )
        }
    }

    /// What a partition has in flight under one assignment: changes whose rows are not yet
    /// acknowledged, the input topic they came from, and whether its last send failed (what it
    /// holds may then be ahead of the topics until a send succeeds again: the failed message is
    /// handled again).
    private struct Sending {
        var generation: Int
        var unacknowledged = 0
        var topic: String?
        var failed = false
    }

    private var held: [Int: Held] = [:]
    /// Each change in flight, with the assignment it was applied under: one settled after its
    /// partition was revoked and assigned again is the earlier owner's, and counts for nothing.
    private var inFlight: [Change: Int] = [:]
    private var sending: [Int: Sending] = [:]
    /// Changes from another input topic waiting for a partition's changes in flight to settle.
    private var waiting: [Int: [CheckedContinuation<Void, Never>]] = [:]
    /// Summaries taken when their partition had every row acknowledged, for partitions that
    /// are seldom idle; and the partitions a publisher asked one of.
    private var settled: [Int: PagesSummary] = [:]
    private var wanted: Set<Int> = []
    /// One change at a time a partition: its three inputs are handled side by side, and a
    /// change reads the page's entry, then writes it, on the store's threads.
    private var turns: [Int: ConcurrencyLimit] = [:]
    private let kafka: KafkaClientConfiguration
    private let progress: StageProgress
    private let file: PageEntryFile?
    /// The entries' disk calls block: they run here, never on the cooperative pool.
    private let threadPool: NIOThreadPool
    private let logger: Logger

    /// - Parameter file: where the entries are kept; nil: in memory.
    init(
        kafka: KafkaClientConfiguration, progress: StageProgress, file: PageEntryFile? = nil,
        threadPool: NIOThreadPool, logger: Logger
    ) {
        (self.kafka, self.progress, self.file, self.threadPool, self.logger) = (
            kafka, progress, file, threadPool, logger
        )
    }

    /// The partition's state under the assignment `generation`, restored first if need be.
    func state(of partition: Int, generation: Int) async throws -> PagePartition {
        let restore: Task<PagePartition, any Error>
        if let entry = held[partition], entry.generation == generation {
            if let state = entry.state { return state }
            restore = entry.restore
        } else {
            let (kafka, logger, progress, file, threadPool) = (kafka, logger, progress, file, threadPool)
            restore = Task {
                let state = try await Self.restore(
                    partition, file: file, threadPool: threadPool, kafka: kafka, logger: logger)
                progress.read(Self.restoreStep, partition: partition, upTo: 1)
                return state
            }
            held[partition] = Held(generation: generation, restore: restore)
            // A summary settled under an earlier assignment may be older than what the output holds.
            settled[partition] = nil
        }
        let state = try await restore.value
        // Kept by whichever waiter resumes first, before any change is applied: a change settles
        // its outline in the kept state, and one kept later would drop it.
        if held[partition]?.generation == generation, held[partition]?.state == nil { held[partition]?.state = state }
        return held[partition]?.state ?? state
    }

    /// Applies `message`'s `input` to the partition's state; returns what it asks to write. The
    /// caller says with ``sent(_:succeeded:)`` whether the broker took it.
    func apply(_ message: Change, to partition: Int, generation: Int, _ input: IndexInput) async throws
        -> PagePartition.Writes
    {
        let entries = try await state(of: partition, generation: generation).entries
        guard let pageId = PagePartition.pageId(of: input) else { return PagePartition.Writes() }
        let turn = turns[partition] ?? ConcurrencyLimit(1)
        turns[partition] = turn
        // The partition's three inputs are handled side by side, each sending its rows in runs:
        // a change from one waits until another's changes in flight are acknowledged, so the
        // changelog and `artpipe.index-works` receive a page's entries in the order they were
        // made (the last one is what a restore, or compaction, keeps). Never waits on its own
        // topic's changes: their run is sent in order, and only once it ends. Waits without the
        // turn (the other input's run may need it to end), and looks again once it holds it.
        while true {
            while othersInFlight(partition, generation: generation, topic: message.topicPartition.topic) {
                await withCheckedContinuation { waiting[partition, default: []].append($0) }
            }
            await turn.acquire()
            guard othersInFlight(partition, generation: generation, topic: message.topicPartition.topic) else { break }
            turn.release()
        }
        defer { turn.release() }
        let writes = try await threadPool.runIfActive {
            let writes = PagePartition.writes(for: input, before: try entries.entry(of: pageId))
            if let entry = writes.entry { try entries.set(entry) }
            return writes
        }
        // Its outline, in place: a copy of the partition's state would copy every outline.
        if let entry = writes.entry, held[partition]?.generation == generation {
            held[partition]?.state?.settle(entry)
        }
        if sending[partition]?.generation != generation {
            sending[partition] = Sending(generation: generation)
            wake(partition)
        }
        sending[partition]?.unacknowledged += 1
        sending[partition]?.topic = message.topicPartition.topic
        inFlight[message] = generation
        return writes
    }

    /// The rows of `message`'s change were acknowledged, or could not be sent.
    func sent(_ message: Change, succeeded: Bool) {
        let partition = Int(message.topicPartition.partition)
        guard let generation = inFlight.removeValue(forKey: message), sending[partition]?.generation == generation
        else { return }
        sending[partition]?.unacknowledged -= 1
        sending[partition]?.failed = !succeeded
        if sending[partition]?.unacknowledged == 0 { wake(partition) }
        if wanted.contains(partition), let summary = settledSummary(of: partition) {
            settled[partition] = summary
            wanted.remove(partition)
        }
    }

    /// Whether changes from another input than `topic` are in flight in `partition`.
    private func othersInFlight(_ partition: Int, generation: Int, topic: String) -> Bool {
        guard let busy = sending[partition] else { return false }
        return busy.generation == generation && busy.unacknowledged > 0 && busy.topic != topic
    }

    /// How many changes wait for `partition`'s changes in flight (for tests).
    func waitingChanges(of partition: Int) -> Int { waiting[partition]?.count ?? 0 }

    /// Resumes the changes waiting on `partition`; each looks again at what is in flight.
    private func wake(_ partition: Int) {
        for continuation in waiting.removeValue(forKey: partition) ?? [] { continuation.resume() }
    }

    private func settledSummary(of partition: Int) -> PagesSummary? {
        guard let entry = held[partition] else { return nil }
        // Bookkeeping of an earlier assignment: nothing of this one is in flight.
        if let sending = sending[partition], sending.generation == entry.generation {
            guard sending.unacknowledged == 0, !sending.failed else { return nil }
        }
        return held[partition]?.state?.currentSummary()
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

    /// The partition read from its changelog into a new table (on the scan's blocking thread).
    private static func restore(
        _ partition: Int, file: PageEntryFile?, threadPool: NIOThreadPool, kafka: KafkaClientConfiguration,
        logger: Logger
    ) async throws -> PagePartition {
        let collected = try await threadPool.runIfActive {
            Collected(partition: partition, entries: try file?.table(of: partition) ?? PageEntriesInMemory())
        }
        try await KafkaTopicSnapshot.scan(
            ArtpipeTopic.indexPages, from: [Int32(partition): 0], configuration: kafka, timeout: .seconds(600),
            logger: logger
        ) { message in
            guard collected.error == nil, let entry = try? IndexTopicRecords.pageEntry(message) else { return }
            do { try collected.state.restore(entry) } catch { collected.error = error }
        }
        if let error = collected.error { throw error }
        logger.info(
            "pages partition restored",
            metadata: ["kafka.partition": "\(partition)", "pages": "\(collected.state.outlines.count)"])
        return collected.state
    }

    /// What a restore collects; only the blocking thread that scans touches it.
    private final class Collected: @unchecked Sendable {
        var state: PagePartition
        /// The table's first failure: the restore fails with it.
        var error: (any Error)?
        init(partition: Int, entries: any PageEntryTable) {
            state = PagePartition(partition: partition, entries: entries)
        }
    }
}
