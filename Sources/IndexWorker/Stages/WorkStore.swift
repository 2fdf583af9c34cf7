import EmbeddedStore
import Foundation
import KafkaClient
import NIOPosix
import StreamTasks
import Synchronization

/// The works stage's state for the partitions this copy holds, on the copy's own disk: one
/// SQLite file of each work's ``WorkState`` by partition and work key. Memory is SQLite's page
/// cache (`cacheBytes`), whatever the works a copy owns; a work's state is read when a row of it
/// comes and written back after. A partition begins empty at each assignment and is read again
/// from its changelog (`artpipe.index-works-state`, a row per work naming the input offset it
/// was changed by), so the file is scratch: made afresh by each process.
///
/// A work's changelog row is sent before the lines its change wrote (``WorksStage``), so a
/// restored state may be ahead of the lines its shards hold, for the works changed at or after
/// the group's committed offset: those are marked unsure, and each is written again whole
/// (``WorkState/rewritten(shards:)``) before anything else of it, as its first row comes or,
/// a few at a time, with any row of the partition.
package final class WorkStore: RestorableStore {
    private let held: Mutex<Held>
    private let shards: IndexShards
    /// SQLite's calls block on the disk: they run here, never on the cooperative pool.
    private let threadPool: NIOThreadPool

    /// How many other unsure works a row of the partition writes again besides its own.
    static let rewrittenPerRow = 64

    /// Opens the store in `folder` (made when missing), replacing what an earlier process left.
    /// - Parameter cacheBytes: what SQLite keeps of it in memory.
    package init(folder: URL, shards: IndexShards, cacheBytes: Int, threadPool: NIOThreadPool)
        throws
    {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        held = Mutex(try Held(path: folder.appendingPathComponent("works.sqlite").path, cacheBytes: cacheBytes))
        (self.shards, self.threadPool) = (shards, threadPool)
    }

    /// What applying one input row came to.
    package struct Change: Sendable {
        /// Lines of unsure works written again whole, to go before `writes`.
        package var rewritten: [WorkState.ArtistWrite] = []
        /// The row's consequence in `artpipe.index-artists`.
        package var writes = WorkState.Writes()
        /// The work's state after the row, when the row changed its rows (its changelog row);
        /// empty: the work is gone.
        package var state: WorkState?
    }

    /// The group's committed offset of `partition` when it was last assigned (nil: none): the
    /// restore that follows marks unsure the works its changelog shows changed at or after it.
    package func starting(_ partition: Int, committed: Int64?) {
        held.withLock { $0.committed[partition] = committed }
    }

    /// Applies a row of `work` read from `partition` at `offset` under the assignment `epoch`
    /// (`row` nil: a tombstone of `key`): the work's state read, changed and written back. A row
    /// of an assignment older than the partition's is left out, and so is one the restored
    /// state shows already (below the offset its changelog's last row names), but for the
    /// unsure works it writes again.
    package func apply(
        to partition: Int, epoch: AssignmentEpoch, offset: Int64, work: WorkKey, key: String, row: WorkRow?
    ) async throws -> Change {
        try await threadPool.runIfActive {
            try self.held.withLock { held in
                guard try held.begin(partition, epoch: epoch) else { return Change() }
                var change = Change()
                let state = try held.state(of: work, in: partition)
                if let unsure = state, unsure.isUnsure {
                    change.rewritten += unsure.state.rewritten(shards: self.shards)
                    try held.put(unsure.state, of: work, in: partition, unsure: false)
                }
                for other in try held.unsure(in: partition, limit: Self.rewrittenPerRow) where other.rows.work != work {
                    change.rewritten += other.rewritten(shards: self.shards)
                    try held.put(other, of: other.rows.work, in: partition, unsure: false)
                }
                guard offset >= held.restoredTo[partition] ?? 0 else { return change }
                var current = state?.state ?? WorkState(work: work)
                let before = current.rows
                change.writes = current.apply(key: key, row: row, shards: self.shards)
                try held.put(current, of: work, in: partition, unsure: false)
                if current.rows != before { change.state = current }
                return change
            }
        }
    }

    /// Empties `partition` to be restored under `epoch` from `artpipe.index-works-state` (its
    /// changelog): each row the state of a work, a tombstone a work gone, and the input offset
    /// the last row names where the state stands. A work its row shows changed at or after the
    /// group's committed offset (every work, where the group had none) is unsure.
    package func beginRestore(of partition: Int, under epoch: AssignmentEpoch) async throws -> any PartitionRestore {
        let committed = try await threadPool.runIfActive {
            try self.held.withLock { held in
                if let current = held.epochs[partition], current > epoch { throw AssignmentEnded(epoch) }
                try held.clear.run([.integer(partition)])
                held.epochs[partition] = epoch
                held.restoredTo[partition] = 0
                return held.committed[partition] ?? nil
            }
        }
        // A row this version cannot read fails the restore (the partition is held, and says
        // why): left out, it would lose its work.
        return RowRestore { [shards] message in
            let (work, state, offset) = try IndexTopicRecords.workState(message, shards: shards)
            try self.held.withLock { held in
                guard held.epochs[partition] == epoch else { return }
                // A work gone stays, empty, while it is unsure: its tombstones are still to write.
                let unsure = offset >= committed ?? 0
                try held.put(state ?? WorkState(work: work), of: work, in: partition, unsure: unsure)
                held.restoredTo[partition] = max(held.restoredTo[partition] ?? 0, offset + 1)
            }
        }
    }

    /// How many works `partition` holds now, and how many of them are unsure, for the tests.
    func count(in partition: Int) async throws -> (works: Int, unsure: Int) {
        try await threadPool.runIfActive { try self.held.withLock { try $0.count(in: partition) } }
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
        /// Per partition, the group's committed offset at its last assignment (nil: none).
        var committed: [Int: Int64?] = [:]
        /// Per partition, one past the input offset its restored state shows: a row below it
        /// is in the state already.
        var restoredTo: [Int: Int64] = [:]

        init(path: String, cacheBytes: Int) throws {
            // A rowid table with a unique key: a state is a few hundred bytes (``ShardLineFile`` says why).
            database = try SQLiteDatabase(
                recreating: path, cacheBytes: cacheBytes,
                schema: """
                    CREATE TABLE works (partition INTEGER NOT NULL, work TEXT NOT NULL, state BLOB NOT NULL,
                        unsure INTEGER NOT NULL, UNIQUE (partition, work));
                    CREATE INDEX unsure_works ON works (partition) WHERE unsure = 1
                    """)
            select = try database.prepare("SELECT state, unsure FROM works WHERE partition = ?1 AND work = ?2")
            upsert = try database.prepare(
                """
                INSERT INTO works (partition, work, state, unsure) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT DO UPDATE SET state = ?3, unsure = ?4
                """)
            delete = try database.prepare("DELETE FROM works WHERE partition = ?1 AND work = ?2")
            clear = try database.prepare("DELETE FROM works WHERE partition = ?1")
            selectUnsure = try database.prepare(
                "SELECT work, state FROM works WHERE partition = ?1 AND unsure = 1 LIMIT ?2")
            counting = try database.prepare("SELECT count(*), total(unsure) FROM works WHERE partition = ?1")
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
            epochs[partition] = epoch
            restoredTo[partition] = 0
            return true
        }

        func state(of work: WorkKey, in partition: Int) throws -> (state: WorkState, isUnsure: Bool)? {
            var found: (WorkState, Bool)?
            try select.run([.integer(partition), .text(work.description)]) {
                found = (try WorkState(work: work, stored: $0.blob(0)), $0.integer(1) == 1)
            }
            return found
        }

        /// Up to `limit` of the partition's unsure works.
        func unsure(in partition: Int, limit: Int) throws -> [WorkState] {
            var states: [WorkState] = []
            try selectUnsure.run([.integer(partition), .integer(limit)]) { row in
                guard let work = WorkKey(text: row.text(0)) else { return }
                states.append(try WorkState(work: work, stored: row.blob(1)))
            }
            return states
        }

        /// Keeps `state`: an empty one goes, unless it is unsure.
        func put(_ state: WorkState, of work: WorkKey, in partition: Int, unsure: Bool) throws {
            if state.isEmpty && !unsure {
                try delete.run([.integer(partition), .text(work.description)])
            } else {
                try upsert.run([
                    .integer(partition), .text(work.description), .blob(state.stored), .integer(unsure ? 1 : 0),
                ])
            }
            try database.changed()
        }

        func count(in partition: Int) throws -> (works: Int, unsure: Int) {
            var count = (works: 0, unsure: 0)
            try counting.run([.integer(partition)]) { count = ($0.integer(0), $0.integer(1)) }
            return count
        }
    }
}
