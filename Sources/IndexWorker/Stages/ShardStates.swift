import Foundation
import KafkaClient
import NIOPosix
import StreamTasks
import Synchronization

/// The artist shards this copy holds: each begins empty at its assignment and is restored
/// from the topic (``beginRestore(of:under:)``), then read on; a shard changed since it was
/// last published is marked so, and rendered again only where it changed. The shards' lines are on the copy's own disk
/// (``ShardLineFile``); what stays in memory is per artist. A shard a checkpoint of a clean stop
/// names (``StoreCheckpoint``) keeps its lines and is read on from the offset it names; where
/// it also names what the output holds of those lines, they are not rendered again while the
/// output still holds it.
package final class ShardStates: RestorableStore {
    private struct Held {
        var epoch: AssignmentEpoch
        var works: ShardWorks
        /// Changed since the publisher last took it.
        var changed = true
        /// To be rendered whole at the next take: its last publish did not finish.
        var whole = true
        /// One past the last offset of the topic its lines show (restored or applied); nil
        /// until its restore began.
        var appliedTo: Int64?
        /// What the output holds of its lines as they are: set once a take's writes all landed
        /// and nothing changed since, or the publisher found the output as a checkpoint said
        /// (``published(_:epoch:_:rewritten:)``); cleared by the next take, a change or a
        /// failed write.
        var published: StoreCheckpoint.Publication?
        /// What a checkpoint said the output holds of the lines it kept, until the publisher
        /// looks (``takeVouched(held:)``): the lines begin neither changed nor to be rendered whole;
        /// the publisher writes the shard whole where the output holds something else.
        var vouched: StoreCheckpoint.Publication?

        /// What the output holds of its lines as they are now, as far as this copy knows.
        var publishedAsIs: StoreCheckpoint.Publication? { changed || whole ? nil : published ?? vouched }
    }

    /// A shard let go whose lines are still in the file.
    private struct Leaving {
        var shard: Int
        var since: ContinuousClock.Instant
        /// Where its lines stood when let go, while none of them is forgotten yet.
        var intactTo: Int64?
        /// Its works by thumbnail status then.
        var tally: [String: Int]
        /// What the output held of its lines then (``Held/publishedAsIs``).
        var published: StoreCheckpoint.Publication?
    }

    private struct State {
        let file: ShardLineFile
        var held: [Int: Held] = [:]
        /// Shards let go whose lines are still in the file, forgotten a part at a time.
        var leaving: [Leaving] = []
        /// The shards whose lines a checkpoint vouched for, until each is restored or begun anew.
        var kept: [Int: StoreCheckpoint.Mark] = [:]
    }

    private let state: Mutex<State>
    /// SQLite's calls block on the disk: they run here, never on the cooperative pool.
    private let threadPool: NIOThreadPool
    /// The lines of shards let go that each ``keep(_:)`` forgets: a small part of a round, so
    /// the shards held are not held up.
    let droppedPerCall: Int
    /// How long a shard let go keeps its lines before they are forgotten: a copy that stops
    /// lets go of every shard, and its checkpoint keeps them.
    let dropsAfter: Duration

    /// How artists are placed in the shards (``ShardWorks/layout``).
    let layout: IndexShards?

    /// Opens the lines' file in `folder`: the one an earlier process sealed, when `kept` is its
    /// checkpoint, checked already; else a new file in place of what was there.
    init(
        folder: URL, cacheBytes: Int, threadPool: NIOThreadPool, droppedPerCall: Int = 10_000,
        dropsAfter: Duration = .seconds(60), layout: IndexShards? = nil, kept: StoreCheckpoint? = nil
    ) throws {
        self.layout = layout
        var state = State(
            file: try ShardLineFile(
                path: folder.appendingPathComponent(StateFile.lines.name).path, cacheBytes: cacheBytes,
                keeping: kept != nil))
        state.kept = kept?.partitions ?? [:]
        self.state = Mutex(state)
        (self.threadPool, self.droppedPerCall, self.dropsAfter) = (threadPool, droppedPerCall, dropsAfter)
    }

    /// Applies a row of `shard` read at `offset` under the assignment `epoch`; a row of an
    /// assignment older than the shard's is left out.
    func apply(
        _ work: WorkKey, _ row: ShardWorks.Row?, shard: Int, epoch: AssignmentEpoch, offset: Int64? = nil
    ) async throws {
        try await threadPool.runIfActive {
            try self.state.withLock { try self.apply(work, row, shard: shard, epoch: epoch, offset: offset, in: &$0) }
        }
    }

    /// ``apply(_:_:shard:epoch:offset:)`` of consecutive lines of `shard`, in order, in one visit
    /// to the file: how many were applied before one threw, and that error (the lines after it
    /// are not applied).
    func apply(_ lines: [(work: WorkKey, row: ShardWorks.Row?, offset: Int64)], shard: Int, epoch: AssignmentEpoch)
        async -> (applied: Int, failure: (any Error)?)
    {
        do {
            return try await threadPool.runIfActive {
                self.state.withLock { state in
                    for (applied, line) in lines.enumerated() {
                        do {
                            try self.apply(
                                line.work, line.row, shard: shard, epoch: epoch, offset: line.offset, in: &state)
                        } catch {
                            return (applied, error)
                        }
                    }
                    return (lines.count, nil)
                }
            }
        } catch {
            return (0, error)
        }
    }

    private func apply(
        _ work: WorkKey, _ row: ShardWorks.Row?, shard: Int, epoch: AssignmentEpoch, offset: Int64?,
        in state: inout State
    )
        throws
    {
        if let held = state.held[shard], held.epoch > epoch {
            // A row of an assignment that has ended, come after the next one began.
            return
        }
        // Taken out, not copied: mutated while the dictionary still held it, every row would
        // copy the shard's whole state.
        var entry: Held
        if let held = state.held.removeValue(forKey: shard), held.epoch == epoch {
            entry = held
        } else {
            entry = try begin(shard, epoch: epoch, in: &state)
        }
        defer { state.held[shard] = entry }
        if !(try entry.works.apply(work, row)).isEmpty { entry.changed = true }
        if let offset, let applied = entry.appliedTo { entry.appliedTo = max(applied, offset + 1) }
    }

    /// The shard taken anew under `epoch`: emptied whole (``ShardLineFile/table(of:)``), so no
    /// longer leaving.
    private func begin(_ shard: Int, epoch: AssignmentEpoch, in state: inout State) throws -> Held {
        state.leaving.removeAll { $0.shard == shard }
        state.kept[shard] = nil
        return Held(
            epoch: epoch, works: ShardWorks(shard: shard, lines: try state.file.table(of: shard), layout: layout))
    }

    /// Empties `shard` to be restored under `epoch` from `artpipe.index-artists`, or, when a
    /// checkpoint kept its lines, takes them as they are (their artists counted again) to be
    /// read on from the offset it names.
    package func beginRestore(of shard: Int, under epoch: AssignmentEpoch) async throws -> any PartitionRestore {
        let resume = try await threadPool.runIfActive {
            try self.state.withLock { state -> Int64 in
                if let held = state.held[shard], held.epoch > epoch { throw AssignmentEnded(epoch) }
                if let kept = state.kept.removeValue(forKey: shard), let tally = kept.tally {
                    var works = ShardWorks(shard: shard, lines: state.file.keptTable(of: shard), layout: self.layout)
                    works.adopt(artists: try state.file.artistCounts(of: shard), thumbnails: tally)
                    var held = Held(epoch: epoch, works: works, appliedTo: kept.offset)
                    if let published = kept.published {
                        // As published: only the rows read from here on are rendered.
                        (held.changed, held.whole, held.vouched) = (false, false, published)
                    }
                    state.held[shard] = held
                    return kept.offset
                }
                var held = try self.begin(shard, epoch: epoch, in: &state)
                held.appliedTo = 0
                state.held[shard] = held
                return 0
            }
        }
        // Each row applied as the stage would.
        return RowRestore(resumingAt: resume) { message in
            // Left out, as the stage's live reader sets it aside (its input is this changelog).
            let input = try RowLeftOut.unlessUnreadable { try IndexTopicRecords.artistRow(message) }
            try self.state.withLock {
                try self.apply(input.work, input.row, shard: shard, epoch: epoch, offset: message.offset, in: &$0)
            }
        }
    }

    /// Seals the file at a clean stop, its stage and publisher stopped (``ShardLineFile/seal()``),
    /// and returns where each shard whose lines are whole stands: held, or let go with none of
    /// its lines forgotten yet; a kept shard not assigned since as its checkpoint had it.
    func seal() async throws -> (partitions: [Int: StoreCheckpoint.Mark], fileBytes: Int64) {
        try await threadPool.runIfActive {
            try self.state.withLock { state in
                var partitions = state.kept
                for leaving in state.leaving {
                    if let intact = leaving.intactTo {
                        partitions[leaving.shard] = StoreCheckpoint.Mark(
                            offset: intact, tally: leaving.tally, published: leaving.published)
                    }
                }
                for (shard, held) in state.held {
                    if let applied = held.appliedTo {
                        partitions[shard] = StoreCheckpoint.Mark(
                            offset: applied, tally: held.works.thumbnailTally, published: held.publishedAsIs)
                    }
                }
                return (partitions, try state.file.seal())
            }
        }
    }

    /// A view of the shard's works under the assignment `epoch`, if they changed since
    /// last taken (or `always`, then whole); marks them taken. A shard no row came to under it
    /// holds no works; one rows came to under a newer assignment gives nothing.
    /// `summaryOnly`: the works are not rendered yet (the index is bootstrapping); the shard is
    /// then taken whole the next time.
    func take(_ shard: Int, epoch: AssignmentEpoch, always: Bool, shards: IndexShards, summaryOnly: Bool = false)
        async throws -> ShardView?
    {
        // Never in parts: one view, handed back.
        try await take(
            shard, epoch: epoch, always: always, shards: shards, summaryOnly: summaryOnly,
            bucketsPerPart: IndexLayout.bucketCount
        ) { _, _ in }.view
    }

    /// ``take(_:epoch:always:shards:summaryOnly:)``, a shard taken whole in parts of at most
    /// `bucketsPerPart` buckets handed to `parts` on the thread pool, each read as its turn comes
    /// (``ShardWorks/views(shards:whole:summaryOnly:bucketsPerPart:_:)``), the shard locked
    /// meanwhile so every part shows the same artists and counts. A view in one piece is handed
    /// back instead, the lock let go: the caller writes it on its own threads, and the stage's
    /// rows go on meanwhile on these. Returns whether it was taken, and that view.
    func take(
        _ shard: Int, epoch: AssignmentEpoch, always: Bool, shards: IndexShards, summaryOnly: Bool = false,
        bucketsPerPart: Int, parts: @escaping @Sendable (_ view: ShardView, _ last: Bool) throws -> Void
    ) async throws -> (taken: Bool, view: ShardView?) {
        try await threadPool.runIfActive {
            let (taken, single): (Bool, ShardView?) = try self.state.withLock { state in
                guard var entry = state.held.removeValue(forKey: shard) else {
                    return (always, always ? ShardView(empty: shard) : nil)
                }
                defer { state.held[shard] = entry }
                // Taken under a newer assignment since the round's picture: its works are not the
                // ones the round asks for, and an empty view in their place would take the shard's
                // files away.
                guard entry.epoch <= epoch else { return (false, nil) }
                guard entry.epoch == epoch else {
                    return (always, always ? ShardView(empty: shard) : nil)
                }
                guard entry.changed || always else { return (false, nil) }
                let whole = always || entry.whole
                var single: ShardView?
                if entry.works.comesInParts(
                    shards: shards, whole: whole, summaryOnly: summaryOnly, bucketsPerPart: bucketsPerPart)
                {
                    try entry.works.views(
                        shards: shards, whole: whole, summaryOnly: summaryOnly, bucketsPerPart: bucketsPerPart, parts)
                } else {
                    single = try entry.works.view(shards: shards, whole: whole, summaryOnly: summaryOnly)
                }
                (entry.changed, entry.whole, entry.published, entry.vouched) = (false, summaryOnly, nil, nil)
                return (true, single)
            }
            return (taken, single)
        }
    }

    /// Lets go of the shards whose assignment had ended by `assignments`, and forgets up to
    /// ``droppedPerCall`` lines of the shards let go. Their lines leave the file over the
    /// following calls: all at once, a revocation (and the last round at shutdown) held the lock
    /// for seconds at millions of works. A shard taken under an assignment newer than the picture
    /// stays: a round's picture is older than its awaits, and a shard assigned meanwhile and let
    /// go by it began again empty past its restored rows (a shard read to its end naming 3 of
    /// its artists, seen once in `.ci/run`).
    func keep(_ assignments: StageAssignments) async throws {
        try await threadPool.runIfActive {
            try self.state.withLock { state in
                let now = ContinuousClock.now
                for (shard, entry) in state.held.sorted(by: { $0.key < $1.key })
                where assignments.hasEnded(shard, epoch: entry.epoch) {
                    state.held[shard] = nil
                    state.leaving.append(
                        Leaving(
                            shard: shard, since: now, intactTo: entry.appliedTo, tally: entry.works.thumbnailTally,
                            published: entry.publishedAsIs))
                }
                guard var leaving = state.leaving.first, now - leaving.since >= self.dropsAfter else { return }
                leaving.intactTo = nil
                state.leaving[0] = leaving
                if !(try state.file.dropSome(of: leaving.shard, limit: self.droppedPerCall)) {
                    state.leaving.removeFirst()
                }
            }
        }
    }

    /// The lines the file holds of each shard, held or let go, for the tests.
    func lineCounts(of shards: Range<Int>) async throws -> [Int] {
        try await threadPool.runIfActive {
            try self.state.withLock { state in try shards.map { try state.file.count(in: $0) } }
        }
    }

    /// Records that the output holds `shard`'s lines as last taken under `epoch`
    /// (`publication`): every file of that take written, or found as a checkpoint said. Kept by
    /// a checkpoint while the lines do not change. `rewritten`: the summary alone was written
    /// again over a publication recorded so (its position moved); recorded only where one was.
    func published(
        _ shard: Int, epoch: AssignmentEpoch, _ publication: StoreCheckpoint.Publication, rewritten: Bool = false
    ) async {
        try? await threadPool.runIfActive {
            self.state.withLock { state in
                guard var held = state.held[shard], held.epoch == epoch, !held.changed, !held.whole,
                    !rewritten || held.published != nil
                else { return }
                held.published = publication
                state.held[shard] = held
            }
        }
    }

    /// The shards a checkpoint vouched for that are held under the assignments `held` names (a
    /// round's picture), each with what the checkpoint said the output holds; forgets them: the
    /// publisher looks once, and records what it finds (``published(_:epoch:_:rewritten:)``) or
    /// writes the shard whole. A shard assigned since the picture waits for the next round's.
    func takeVouched(held: [Int: AssignmentEpoch]) async throws -> [Int: StoreCheckpoint.Publication] {
        try await threadPool.runIfActive {
            self.state.withLock { state in
                var vouched: [Int: StoreCheckpoint.Publication] = [:]
                for (shard, entry) in state.held where held[shard] == entry.epoch {
                    guard let publication = entry.vouched else { continue }
                    vouched[shard] = publication
                    state.held[shard]?.vouched = nil
                }
                return vouched
            }
        }
    }

    /// Marks a shard to be rendered whole again: its last publish did not finish.
    func republish(_ shard: Int) async {
        // The lock may be held over a disk call: waited for off the cooperative pool too.
        try? await threadPool.runIfActive {
            self.state.withLock {
                $0.held[shard]?.changed = true
                $0.held[shard]?.whole = true
                $0.held[shard]?.published = nil
            }
        }
    }
}
