import ArtpipeSupport
import KafkaClient
import Logging
import NIOPosix
import PipelineContract
import StreamTasks
import Synchronization

/// The pages stage's partitions this copy holds, each restored from `artpipe.index-pages`
/// at its assignment (``StageProgress``, ``ChangelogRestorer``) before it is used; their entries
/// in a ``PageEntryFile`` on the copy's disk (in memory without one), their outlines here.
package actor PagePartitions: RestorableStore {
    private struct Held {
        var epoch: AssignmentEpoch
        var state: PagePartition
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
        var epoch: AssignmentEpoch
        var unacknowledged = 0
        var topic: String?
        var failed = false
    }

    private var held: [Int: Held] = [:]
    /// Each change in flight, with the assignment it was applied under (one settled after its
    /// partition was revoked and assigned again is the earlier owner's, and counts for nothing)
    /// and its page.
    private var inFlight: [Change: (epoch: AssignmentEpoch, pageId: String)] = [:]
    /// By partition, under its assignment: each page's last change applied, until it is
    /// acknowledged; and the pages whose last change was (every key its entry names is in the
    /// topic: the entry of a change made while the one before was not acknowledged names that
    /// one's keys too, and its rows take them back). A page restored from the changelog, or
    /// whose last change could not be sent, is in neither.
    private var lastApplied: [Int: [String: Change]] = [:]
    private var settledPages: [Int: Set<String>] = [:]
    /// Changes applied with nothing to write (no page id), with their assignment, until settled.
    private var appliedAlone: [Change: AssignmentEpoch] = [:]
    private var sending: [Int: Sending] = [:]
    /// The partitions a change of which could not be sent under their assignment: their
    /// entries may be ahead of the changelog.
    private var unsent: Set<Int> = []
    /// Changes from another input topic waiting for a partition's changes in flight to settle.
    private var waiting: [Int: [CheckedContinuation<Void, Never>]] = [:]
    /// Summaries taken when their partition had every row acknowledged, for partitions that
    /// are seldom idle; and the partitions a publisher asked one of.
    private var settled: [Int: PagesSummary] = [:]
    private var wanted: Set<Int> = []
    /// One change at a time a partition: its three inputs are handled side by side, and a
    /// change reads the page's entry, then writes it, on the store's threads.
    private var turns: [Int: ConcurrencyLimit] = [:]
    private let file: PageEntryFile?
    /// By partition, the epoch whose restore may write its entries: a restore of an assignment
    /// that has ended writes nothing more (held across each of its writes).
    private nonisolated let restoring = RestoringEpochs()
    /// The entries' disk calls block: they run here, never on the cooperative pool.
    private let threadPool: NIOThreadPool
    private let logger: Logger

    /// - Parameter file: where the entries are kept; nil: in memory.
    init(file: PageEntryFile? = nil, threadPool: NIOThreadPool, logger: Logger) {
        (self.file, self.threadPool, self.logger) = (file, threadPool, logger)
    }

    /// Empties the partition's entries to be restored under `epoch`; or, when a checkpoint kept
    /// them, takes them as they are (their outlines read again) to be read on from where it says.
    package nonisolated func beginRestore(of partition: Int, under epoch: AssignmentEpoch) async throws
        -> any PartitionRestore
    {
        let (file, restoring) = (file, restoring)
        let (state, resume) = try await threadPool.runIfActive {
            try restoring.epochs.withLock { restoring -> (PagePartition, Int64) in
                if let current = restoring[partition], current > epoch { throw AssignmentEnded(epoch) }
                restoring[partition] = epoch
                self.restoring.restoredTo.withLock { $0[partition] = nil }
                if let file, let (table, mark) = try file.keptTable(of: partition) {
                    var state = PagePartition(partition: partition, entries: table)
                    for outline in try file.outlines(of: table) { state.settle(outline) }
                    return (state, mark.offset)
                }
                return (
                    PagePartition(
                        partition: partition, entries: try file?.table(of: partition) ?? PageEntriesInMemory()), 0
                )
            }
        }
        return Restore(partitions: self, epoch: epoch, restoring: restoring, state: state, resumeOffset: resume)
    }

    /// A partition restored under `epoch` up to `end` of its changelog: kept, unless a newer
    /// assignment's was.
    private func restored(_ state: PagePartition, epoch: AssignmentEpoch, to end: Int64) {
        let partition = state.partition
        if let held = held[partition], held.epoch > epoch { return }
        held[partition] = Held(epoch: epoch, state: state)
        // A summary settled under an earlier assignment may be older than what the output holds.
        settled[partition] = nil
        (lastApplied[partition], settledPages[partition]) = ([:], [])
        unsent.remove(partition)
        restoring.epochs.withLock { epochs in
            if epochs[partition] == epoch { restoring.restoredTo.withLock { $0[partition] = end } }
        }
        logger.info(
            "pages partition restored",
            metadata: ["kafka.partition": "\(partition)", "pages": "\(state.outlines.count)"])
    }

    /// The partition's state under `epoch`, once restored; nil when it is not held under it.
    func state(of partition: Int, epoch: AssignmentEpoch) -> PagePartition? {
        held[partition].flatMap { $0.epoch == epoch ? $0.state : nil }
    }

    /// Applies `message`'s `input` to the partition's state; returns what it asks to write. The
    /// caller says with ``sent(_:succeeded:)`` whether the broker took it.
    /// A partition not held under `epoch` (its assignment has ended) writes nothing.
    func apply(_ message: Change, to partition: Int, epoch: AssignmentEpoch, _ input: IndexInput) async throws
        -> PagePartition.Writes
    {
        guard let entries = state(of: partition, epoch: epoch)?.entries else { return PagePartition.Writes() }
        guard let pageId = PagePartition.pageId(of: input) else {
            // Nothing to write, and read under this assignment once settled.
            appliedAlone[message] = epoch
            return PagePartition.Writes()
        }
        let turn = turns[partition] ?? ConcurrencyLimit(1)
        turns[partition] = turn
        // The partition's three inputs are handled side by side, each sending its rows in runs:
        // a change from one waits until another's changes in flight are acknowledged, so the
        // changelog and `artpipe.index-works` receive a page's entries in the order they were
        // made (the last one is what a restore, or compaction, keeps). Never waits on its own
        // topic's changes: their run is sent in order, and only once it ends. Waits without the
        // turn (the other input's run may need it to end), and looks again once it holds it.
        while true {
            while othersInFlight(partition, epoch: epoch, topic: message.topicPartition.topic) {
                await withCheckedContinuation { waiting[partition, default: []].append($0) }
            }
            await turn.acquire()
            guard othersInFlight(partition, epoch: epoch, topic: message.topicPartition.topic) else { break }
            turn.release()
        }
        defer { turn.release() }
        // Revoked and assigned again while it waited: the newer assignment reads it again.
        guard held[partition]?.epoch == epoch else { return PagePartition.Writes() }
        let beforeSettled = settledPages[partition]?.remove(pageId) != nil
        lastApplied[partition, default: [:]][pageId] = message
        let writes = try await threadPool.runIfActive {
            let writes = PagePartition.writes(
                for: input, before: try entries.entry(of: pageId), beforeSettled: beforeSettled)
            if let entry = writes.entry { try entries.set(entry) }
            return writes
        }
        // Its outline, in place: a copy of the partition's state would copy every outline.
        if let entry = writes.entry, held[partition]?.epoch == epoch {
            held[partition]?.state.settle(entry)
        }
        if sending[partition]?.epoch != epoch {
            sending[partition] = Sending(epoch: epoch)
            wake(partition)
        }
        sending[partition]?.unacknowledged += 1
        sending[partition]?.topic = message.topicPartition.topic
        inFlight[message] = (epoch, pageId)
        return writes
    }

    /// The rows of `message`'s change were acknowledged, or could not be sent. Returns the
    /// assignment it was applied under; nil when it was not applied.
    @discardableResult
    func sent(_ message: Change, succeeded: Bool) -> AssignmentEpoch? {
        if let epoch = appliedAlone.removeValue(forKey: message) { return epoch }
        let partition = Int(message.topicPartition.partition)
        guard let (epoch, pageId) = inFlight.removeValue(forKey: message) else { return nil }
        if held[partition]?.epoch == epoch {
            if !succeeded { unsent.insert(partition) }
            if lastApplied[partition]?[pageId] == message {
                lastApplied[partition]?[pageId] = nil
                if succeeded { settledPages[partition]?.insert(pageId) }
            }
        }
        guard sending[partition]?.epoch == epoch else { return epoch }
        sending[partition]?.unacknowledged -= 1
        sending[partition]?.failed = !succeeded
        if sending[partition]?.unacknowledged == 0 { wake(partition) }
        if wanted.contains(partition), let summary = settledSummary(of: partition) {
            settled[partition] = summary
            wanted.remove(partition)
        }
        return epoch
    }

    /// Whether changes from another input than `topic` are in flight in `partition`.
    private func othersInFlight(_ partition: Int, epoch: AssignmentEpoch, topic: String) -> Bool {
        guard let busy = sending[partition] else { return false }
        return busy.epoch == epoch && busy.unacknowledged > 0 && busy.topic != topic
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
        if let sending = sending[partition], sending.epoch == entry.epoch {
            guard sending.unacknowledged == 0, !sending.failed else { return nil }
        }
        return held[partition]?.state.currentSummary()
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

    /// Seals the entries' file at a clean stop, the stage stopped, and returns where each
    /// partition whose entries show only its changelog stands in it: restored, every change
    /// applied since acknowledged; one past the last offset its restore read or this copy's
    /// producer had acknowledged there (`acknowledged`, by partition; nil: unknown, and none is
    /// named). Nil without a file.
    func seal(acknowledged: [Int64]?) async throws -> (partitions: [Int: StoreCheckpoint.Mark], fileBytes: Int64)? {
        guard let file else { return nil }
        var candidates: [Int: (epoch: AssignmentEpoch, mark: StoreCheckpoint.Mark)] = [:]
        if let acknowledged {
            let (epochs, ends) = self.restoring.epochs.withLock { ($0, self.restoring.restoredTo.withLock { $0 }) }
            for (partition, end) in ends {
                // Every change applied under the assignment acknowledged (each is counted in
                // flight until its rows are), none refused.
                guard let state = held[partition], epochs[partition] == state.epoch, !unsent.contains(partition),
                    sending[partition].map({ $0.epoch != state.epoch || $0.unacknowledged == 0 }) ?? true,
                    let table = state.state.entries as? PageEntriesOnDisk
                else { continue }
                let written = partition < acknowledged.count ? acknowledged[partition] : 0
                candidates[partition] = (
                    state.epoch, StoreCheckpoint.Mark(offset: max(end, written), slot: table.slot)
                )
            }
        }
        let (restoring, found) = (self.restoring, candidates)
        // Under the restores' lock: a restore begun since (its table emptied) leaves its
        // partition out, and one begun after finds the file sealed.
        return try await threadPool.runIfActive {
            try restoring.epochs.withLock { epochs in
                let ends = restoring.restoredTo.withLock { $0 }
                let marks = found.filter { epochs[$0.key] == $0.value.epoch && ends[$0.key] != nil }.mapValues(\.mark)
                return try file.seal(with: marks)
            }
        }
    }

    /// One partition's restore: the changelog's entries into its table, on the scan's thread.
    private final class Restore: PartitionRestore, @unchecked Sendable {
        let partitions: PagePartitions
        let epoch: AssignmentEpoch
        let restoring: RestoringEpochs
        let resumeOffset: Int64
        /// Touched only by the scan's blocking thread, then by `finish`.
        var state: PagePartition
        var end: Int64

        init(
            partitions: PagePartitions, epoch: AssignmentEpoch, restoring: RestoringEpochs,
            state: PagePartition, resumeOffset: Int64
        ) {
            (self.partitions, self.epoch, self.restoring, self.state) = (partitions, epoch, restoring, state)
            (self.resumeOffset, end) = (resumeOffset, resumeOffset)
        }

        func restore(_ message: KafkaConsumerMessage) throws {
            end = message.offset + 1
            // Another build's entry (a later format) is left out, and said.
            guard let entry = try RowLeftOut.unlessUnreadable({ try IndexTopicRecords.pageEntry(message) }) else {
                return
            }
            let partition = state.partition
            try restoring.epochs.withLock { restoring in
                guard restoring[partition] == epoch else { return }
                try state.restore(entry)
            }
        }

        func finish() async throws {
            await partitions.restored(state, epoch: epoch, to: end)
        }
    }

    /// By partition, the epoch whose restore may write its entries; and one past the last
    /// changelog offset that restore read (or where it resumed), once it finished.
    private final class RestoringEpochs: Sendable {
        let epochs = Mutex<[Int: AssignmentEpoch]>([:])
        let restoredTo = Mutex<[Int: Int64]>([:])
    }
}
