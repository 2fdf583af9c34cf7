import EmbeddedStore
import Foundation
import KafkaClient
import NIOPosix
import StreamTasks
import Synchronization

/// The works stage's state for the partitions this copy holds, on the copy's own disk: one
/// SQLite file of each work's ``WorkState`` by partition and work key, with the input offset
/// its changelog row names. Memory is SQLite's page cache (`cacheBytes`), whatever the works a
/// copy owns; a work's state is read when a row of it comes and written back after. A partition
/// begins empty at each assignment and is read again from its changelog
/// (`artpipe.index-works-state`), unless the file was sealed at a clean stop with a checkpoint
/// naming it (``StoreCheckpoint``): its rows are then kept, and the changelog read from there.
///
/// A work's changelog row is sent before the lines its change writes (``WorksStage``), so a
/// restored work may be ahead of the lines its shards hold. The changelog also holds, per
/// partition, where the lines are known sent: a mark naming the input offset below which every
/// change's lines were acknowledged. A work whose row names an offset at or past the mark is
/// unsure: the first row handled under the assignment writes every unsure work again whole
/// (``WorkState/rewritten(shards:)``) before anything else, and the mark moves on only once
/// that is acknowledged.
package final class WorkStore: RestorableStore {
    private let held: Mutex<Held>
    private let shards: IndexShards
    /// SQLite's calls block on the disk: they run here, never on the cooperative pool.
    private let threadPool: NIOThreadPool

    /// Opens the store in `folder` (made when missing): the file an earlier process sealed, when
    /// `kept` is its checkpoint, checked already; else a new file in place of what was there.
    /// - Parameter cacheBytes: what SQLite keeps of it in memory.
    package init(
        folder: URL, shards: IndexShards, cacheBytes: Int, threadPool: NIOThreadPool, kept: StoreCheckpoint? = nil
    ) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        held = Mutex(
            try Held(path: folder.appendingPathComponent(StateFile.works.name).path, cacheBytes: cacheBytes, kept: kept)
        )
        (self.shards, self.threadPool) = (shards, threadPool)
    }

    /// What applying one input row came to.
    package struct Change: Sendable {
        /// The unsure works' states, sent again to the changelog, each with the input offset its
        /// row names.
        package var restated: [(state: WorkState, inputOffset: Int64)] = []
        /// The unsure works, their lines written again whole, to go before `writes`.
        package var rewritten: [WorkState.ArtistWrite] = []
        /// The row's consequence in `artpipe.index-artists`.
        package var writes = WorkState.Writes()
        /// The work's state after the row, when the row changed its rows (its changelog row);
        /// empty: the work is gone.
        package var state: WorkState?
        /// Where the partition's lines are known sent now, when that moved: a mark for the changelog.
        package var linesSent: Int64?
    }

    /// The most bytes a work's state may take: a row that would make it larger (or larger than
    /// it is, for a state restored larger) is refused for good (its message dead-lettered, the
    /// state left as it was), so no changelog row is ever larger than a producer takes
    /// (librdkafka's `message.max.bytes`, 1,000,000 by default).
    package static let maximumStateBytes = 512 << 10

    /// Applies a row of `work` read from `partition` at `offset` under the assignment `epoch`
    /// (`row` nil: a tombstone of `key`): the work's state read, changed and written back. A row
    /// of an assignment older than the partition's is left out, and so is one its work's
    /// restored state shows already (at or below the offset its changelog row names). The
    /// first row applied under the assignment, or after outputs went unsent
    /// (``outputsLost(in:)``), first writes again every unsure work; a throw leaves that to
    /// the next row.
    package func apply(
        to partition: Int, epoch: AssignmentEpoch, offset: Int64, work: WorkKey, key: String, row: WorkRow?
    ) async throws -> Change {
        let applied = await apply(
            to: partition, epoch: epoch, rows: [InputRow(offset: offset, work: work, key: key, row: row)])
        if let failure = applied.failure { throw failure }
        return applied.changes[0]
    }

    /// A row of `artpipe.index-works` to apply: its offset, work, key and row (nil: a tombstone).
    package struct InputRow: Sendable {
        package var offset: Int64
        package var work: WorkKey
        package var key: String
        package var row: WorkRow?
    }

    /// ``apply(to:epoch:offset:work:key:row:)`` of consecutive rows of `partition`, in order, in
    /// one visit to the file: the change of each row applied, up to the first that threw, and
    /// that error (the rows after it are not applied).
    package func apply(to partition: Int, epoch: AssignmentEpoch, rows: [InputRow]) async -> (
        changes: [Change], failure: (any Error)?
    ) {
        do {
            return try await threadPool.runIfActive {
                self.held.withLock { held in
                    var changes: [Change] = []
                    changes.reserveCapacity(rows.count)
                    for input in rows {
                        do {
                            guard try held.begin(partition, epoch: epoch) else {
                                changes.append(Change())
                                continue
                            }
                            changes.append(
                                try self.apply(
                                    to: partition, offset: input.offset, work: input.work, key: input.key,
                                    row: input.row,
                                    in: &held))
                        } catch {
                            if held.marks[partition]?.held == false { held.marks[partition]?.rewriteAt = nil }
                            return (changes, error)
                        }
                    }
                    return (changes, nil)
                }
            }
        } catch {
            return ([], error)
        }
    }

    private func apply(to partition: Int, offset: Int64, work: WorkKey, key: String, row: WorkRow?, in held: inout Held)
        throws -> Change
    {
        var change = Change()
        let rewrite = held.marks[partition]?.rewriteAt == nil
        if rewrite {
            for (unsure, changedAt) in try held.unsure(in: partition) {
                change.restated.append((unsure, changedAt))
                change.rewritten += unsure.rewritten(shards: shards)
            }
        }
        let stored = try held.state(of: work, in: partition)
        if offset > stored?.offset ?? -1 {
            var state = stored?.state ?? WorkState(work: work)
            let before = state.rows
            change.writes = state.apply(key: key, row: row, shards: shards)
            let changed = state.rows != before
            // A work gone is kept, empty, with its offset: should its lines go unsent, the
            // rewrite of the unsure works takes them back. A row that shrinks a state is taken
            // whatever its size.
            try held.put(
                state, of: work, in: partition, offset: changed ? offset : stored?.offset ?? -1, keepEmpty: true,
                limit: max(Self.maximumStateBytes, stored?.bytes ?? 0))
            if changed { change.state = state }
        }
        if rewrite { held.marks[partition]?.rewriteAt = offset }
        change.linesSent = held.marks[partition]?.moved()
        held.marks[partition]?.lastApplied = offset
        return change
    }

    /// The outputs of the message at `offset` of `partition` were not acknowledged and will not
    /// be sent as they were (a record refused for good: the runtime handles the messages again
    /// one at a time, and their changes are applied already): the next row writes every unsure
    /// work again, state and lines, and the mark waits for that. Where the lost outputs were
    /// such a rewrite, the mark stays where it is for the rest of the assignment instead (a
    /// record refused again at every row would send every row to the dead letters): the next
    /// restore finds those works unsure still. Returns whether the mark stays.
    @discardableResult
    package func outputsLost(in partition: Int, at offset: Int64) -> Bool {
        held.withLock { held in
            guard var marks = held.marks[partition] else { return false }
            marks.lost = true
            if marks.rewriteAt == offset { marks.held = true }
            if !marks.held { marks.rewriteAt = nil }
            held.marks[partition] = marks
            return marks.held
        }
    }

    /// The messages of `partition` below `position` are done with, their outputs acknowledged:
    /// the lines of their changes are sent. Heard only while the partition's lease is active
    /// (the runtime finishes messages before a revoke returns, and so before the partition's
    /// next restore begins).
    package func settled(_ partition: Int, upTo position: Int64) {
        held.withLock { held in
            guard var marks = held.marks[partition] else { return }
            marks.settled = max(marks.settled, position)
            held.marks[partition] = marks
        }
    }

    /// Empties `partition` to be restored under `epoch` from `artpipe.index-works-state` (its
    /// changelog): each row the state of a work, a tombstone a work gone, each naming the input
    /// offset whose handling it shows (of two rows of a work, the one naming the later offset
    /// counts); a mark, where the lines are known sent. A work whose row names an offset at or
    /// past the last mark is unsure.
    package func beginRestore(of partition: Int, under epoch: AssignmentEpoch) async throws -> any PartitionRestore {
        let resume = try await threadPool.runIfActive {
            try self.held.withLock { held -> Int64 in
                if let current = held.epochs[partition], current > epoch { throw AssignmentEnded(epoch) }
                held.epochs[partition] = epoch
                if let kept = held.kept.removeValue(forKey: partition) {
                    held.marks[partition] = Marks(linesSent: kept.linesSent ?? 0, restoredTo: kept.offset)
                    return kept.offset
                }
                try held.clear.run([.integer(partition)])
                held.marks[partition] = Marks(restoredTo: 0)
                return 0
            }
        }
        // A row this version cannot read fails the restore (the partition is held, and says
        // why): left out, it would lose its work.
        return RowRestore(resumingAt: resume) { [shards] message in
            let row = try IndexTopicRecords.workStateRow(message, shards: shards)
            try self.held.withLock { held in
                guard held.epochs[partition] == epoch else { return }
                switch row {
                case .linesSent(let position):
                    held.marks[partition]?.restored(linesSent: position)
                case .work(let work, let state, inputOffset: let offset):
                    if let stored = try held.state(of: work, in: partition), stored.offset > offset { break }
                    // A work gone stays, empty, with its offset: its lines may still be to take back.
                    try held.put(
                        state ?? WorkState(work: work), of: work, in: partition, offset: offset, keepEmpty: true)
                }
                // Only once the row is applied: the rows below it are all the partition shows.
                held.marks[partition]?.restoredTo = message.offset + 1
            }
        }
    }

    /// Seals the file at a clean stop, its stage stopped (``SQLiteDatabase/seal()``), and
    /// returns where each partition whose rows show only its changelog stands in it: one past
    /// the last offset its restore read or this copy's producer had acknowledged there
    /// (`acknowledged`, by partition; nil: unknown, and no partition is named), with its mark of
    /// lines sent. A kept partition not assigned since is named as its checkpoint had it.
    package func seal(acknowledged: [Int64]?) async throws -> (
        partitions: [Int: StoreCheckpoint.Mark], fileBytes: Int64
    ) {
        try await threadPool.runIfActive {
            try self.held.withLock { held in
                var partitions = held.kept
                if let acknowledged {
                    for (partition, marks) in held.marks where marks.showsOnlyItsChangelog {
                        let written = partition < acknowledged.count ? acknowledged[partition] : 0
                        partitions[partition] = StoreCheckpoint.Mark(
                            offset: max(marks.restoredTo ?? 0, written), linesSent: marks.linesSent)
                    }
                }
                return (partitions, try held.database.seal())
            }
        }
    }

    /// How many works `partition` shows now (not those gone), for the tests.
    func count(in partition: Int) async throws -> Int {
        try await threadPool.runIfActive { try self.held.withLock { try $0.count(in: partition) } }
    }

    /// Where a partition's lines are known sent.
    private struct Marks {
        /// The last mark its changelog held, or this copy wrote: the lines of every change at an
        /// input offset below it are acknowledged.
        var linesSent: Int64 = 0
        /// Below which this copy's messages are done with, their outputs acknowledged.
        var settled: Int64 = 0
        /// The offset of the row that wrote the unsure works again; nil until one did.
        var rewriteAt: Int64?
        /// The mark stays for the rest of the assignment: a rewrite's outputs were lost.
        var held = false
        /// One past the last changelog offset the partition's restore read (or where it resumed);
        /// nil for a partition begun without one.
        var restoredTo: Int64?
        /// The input offset of the last row applied under the assignment.
        var lastApplied: Int64?
        /// Outputs of a row applied were lost: the state may hold changes its changelog lacks.
        var lost = false

        /// Whether the partition's rows are its changelog's up to where it was read or written:
        /// every change applied under the assignment acknowledged, none lost.
        var showsOnlyItsChangelog: Bool {
            guard restoredTo != nil, !lost else { return false }
            return lastApplied.map { settled > $0 } ?? true
        }

        mutating func restored(linesSent position: Int64) {
            linesSent = max(linesSent, position)
        }

        /// The mark to write, when the lines sent moved past the last one: only once the
        /// unsure works' lines written again are acknowledged.
        mutating func moved() -> Int64? {
            guard !held, let rewriteAt, settled > rewriteAt, settled > linesSent else { return nil }
            linesSent = settled
            return settled
        }
    }

    /// The database and its statements, used under the lock only.
    private struct Held {
        let database: SQLiteDatabase
        let select: SQLiteStatement
        let upsert: SQLiteStatement
        let delete: SQLiteStatement
        let clear: SQLiteStatement
        let selectUnsure: SQLiteStatement
        let counting: SQLiteStatement
        /// The assignment each partition's rows were read under.
        var epochs: [Int: AssignmentEpoch] = [:]
        /// Each partition's marks, under its assignment.
        var marks: [Int: Marks] = [:]
        /// The partitions whose rows a checkpoint vouched for, until each is restored or begun anew.
        var kept: [Int: StoreCheckpoint.Mark] = [:]

        /// A rowid table with a unique key: a state is a few hundred bytes (``ShardLineFile`` says why).
        static let schema = """
            CREATE TABLE works (partition INTEGER NOT NULL, work TEXT NOT NULL, state BLOB NOT NULL,
                offset INTEGER NOT NULL, UNIQUE (partition, work))
            """

        init(path: String, cacheBytes: Int, kept: StoreCheckpoint?) throws {
            database = try SQLiteDatabase(path, keeping: kept != nil, cacheBytes: cacheBytes, schema: Self.schema)
            self.kept = kept?.partitions ?? [:]
            select = try database.prepare("SELECT state, offset FROM works WHERE partition = ?1 AND work = ?2")
            upsert = try database.prepare(
                """
                INSERT INTO works (partition, work, state, offset) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT DO UPDATE SET state = ?3, offset = ?4
                """)
            delete = try database.prepare("DELETE FROM works WHERE partition = ?1 AND work = ?2")
            clear = try database.prepare("DELETE FROM works WHERE partition = ?1")
            selectUnsure = try database.prepare(
                "SELECT work, state, offset FROM works WHERE partition = ?1 AND offset >= ?2")
            counting = try database.prepare("SELECT count(*) FROM works WHERE partition = ?1 AND state != ?2")
        }

        /// Whether a row of `partition` under `epoch` is applied: not when the partition is held
        /// under a newer assignment. One under a newer assignment than it had begins empty
        /// (``WorkStore/beginRestore(of:under:)`` did it already for a partition restored).
        mutating func begin(_ partition: Int, epoch: AssignmentEpoch) throws -> Bool {
            if let current = epochs[partition] {
                if current > epoch { return false }
                if current == epoch { return true }
            }
            try clear.run([.integer(partition)])
            kept[partition] = nil
            epochs[partition] = epoch
            marks[partition] = Marks()
            return true
        }

        /// The work's state, the offset its changelog row names, and its size in bytes here.
        func state(of work: WorkKey, in partition: Int) throws -> (state: WorkState, offset: Int64, bytes: Int)? {
            var found: (WorkState, Int64, Int)?
            try select.run([.integer(partition), .text(work.description)]) {
                let bytes = $0.blob(0)
                found = (try WorkState(work: work, stored: bytes), Int64($0.integer(1)), bytes.count)
            }
            return found
        }

        /// The partition's unsure works, each with the offset its row names: at or past its last mark.
        func unsure(in partition: Int) throws -> [(WorkState, Int64)] {
            var states: [(WorkState, Int64)] = []
            let since = Int(marks[partition]?.linesSent ?? 0)
            try selectUnsure.run([.integer(partition), .integer(since)]) { row in
                guard let work = WorkKey(text: row.text(0)) else { return }
                states.append((try WorkState(work: work, stored: row.blob(1)), Int64(row.integer(2))))
            }
            return states
        }

        /// Keeps `state` with the input offset its changelog row names: an empty one goes,
        /// unless `keepEmpty` (restored: its tombstones may be still to write). Throws
        /// ``WorkStateTooLarge``, keeping nothing, for a state over `limit` bytes.
        func put(
            _ state: WorkState, of work: WorkKey, in partition: Int, offset: Int64, keepEmpty: Bool = false,
            limit: Int? = nil
        ) throws {
            if state.isEmpty && !keepEmpty {
                try delete.run([.integer(partition), .text(work.description)])
            } else {
                let bytes = state.stored
                if let limit, bytes.count > limit {
                    throw WorkStateTooLarge(work: work, bytes: bytes.count, limit: limit)
                }
                try upsert.run([.integer(partition), .text(work.description), .blob(bytes), .integer(Int(offset))])
            }
            try database.changed()
        }

        func count(in partition: Int) throws -> Int {
            var count = 0
            let empty = WorkState(work: WorkKey(source: "", id: "", isRecord: false)).stored
            try counting.run([.integer(partition), .blob(empty)]) { count = $0.integer(0) }
            return count
        }
    }
}
