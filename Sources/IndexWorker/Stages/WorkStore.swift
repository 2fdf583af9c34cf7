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
/// from its changelog, so the file is scratch: made afresh by each process.
package final class WorkStore: RestorableStore {
    private let held: Mutex<Held>
    private let shards: IndexShards
    /// SQLite's calls block on the disk: they run here, never on the cooperative pool.
    private let threadPool: NIOThreadPool

    /// Opens the store in `folder` (made when missing), replacing what an earlier process left.
    /// - Parameter cacheBytes: what SQLite keeps of it in memory.
    package init(folder: URL, shards: IndexShards, cacheBytes: Int, threadPool: NIOThreadPool)
        throws
    {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        held = Mutex(try Held(path: folder.appendingPathComponent("works.sqlite").path, cacheBytes: cacheBytes))
        (self.shards, self.threadPool) = (shards, threadPool)
    }

    /// Applies a row of `work` read from `partition` under the assignment `epoch` (`row` nil: a
    /// tombstone of `key`): the work's state read, changed and written back. A row of an
    /// assignment older than the partition's is left out (it writes nothing).
    package func apply(to partition: Int, epoch: AssignmentEpoch, work: WorkKey, key: String, row: WorkRow?)
        async throws -> WorkState.Writes
    {
        try await threadPool.runIfActive {
            try self.held.withLock {
                try self.apply(to: partition, epoch: epoch, work: work, key: key, row: row, in: &$0)
            }
        }
    }

    private func apply(
        to partition: Int, epoch: AssignmentEpoch, work: WorkKey, key: String, row: WorkRow?, in held: inout Held
    ) throws -> WorkState.Writes {
        guard try held.begin(partition, epoch: epoch) else { return WorkState.Writes() }
        var state = try held.state(of: work, in: partition) ?? WorkState(work: work)
        let writes = state.apply(key: key, row: row, shards: shards)
        try held.put(state, of: work, in: partition)
        return writes
    }

    /// Empties `partition` to be restored under `epoch` from `artpipe.index-works` (its changelog).
    package func beginRestore(of partition: Int, under epoch: AssignmentEpoch) async throws -> any PartitionRestore {
        try await threadPool.runIfActive {
            try self.held.withLock { held in
                if let current = held.epochs[partition], current > epoch { throw AssignmentEnded(epoch) }
                try held.clear.run([.integer(partition)])
                held.epochs[partition] = epoch
            }
        }
        // Each row applied as the handler would, its writes dropped (they were sent when the row
        // was first handled).
        return RowRestore { message in
            guard let input = try? IndexTopicRecords.workRow(message) else { return }
            _ = try self.held.withLock {
                try self.apply(to: partition, epoch: epoch, work: input.work, key: input.key, row: input.row, in: &$0)
            }
        }
    }

    /// How many works `partition` holds now, for the tests.
    func count(in partition: Int) async throws -> Int {
        try await threadPool.runIfActive { try self.held.withLock { try $0.count(in: partition) } }
    }

    /// The database and its statements, used under the lock only.
    private struct Held {
        let database: SQLiteDatabase
        let select: SQLiteStatement
        let upsert: SQLiteStatement
        let delete: SQLiteStatement
        let clear: SQLiteStatement
        let counting: SQLiteStatement
        /// The assignment each partition's rows were read under.
        var epochs: [Int: AssignmentEpoch] = [:]

        init(path: String, cacheBytes: Int) throws {
            // A rowid table with a unique key: a state is a few hundred bytes (``ShardLineFile`` says why).
            database = try SQLiteDatabase(
                recreating: path, cacheBytes: cacheBytes,
                schema: """
                    CREATE TABLE works (partition INTEGER NOT NULL, work TEXT NOT NULL, state BLOB NOT NULL,
                        UNIQUE (partition, work))
                    """)
            select = try database.prepare("SELECT state FROM works WHERE partition = ?1 AND work = ?2")
            upsert = try database.prepare(
                "INSERT INTO works (partition, work, state) VALUES (?1, ?2, ?3) ON CONFLICT DO UPDATE SET state = ?3")
            delete = try database.prepare("DELETE FROM works WHERE partition = ?1 AND work = ?2")
            clear = try database.prepare("DELETE FROM works WHERE partition = ?1")
            counting = try database.prepare("SELECT count(*) FROM works WHERE partition = ?1")
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
            return true
        }

        func state(of work: WorkKey, in partition: Int) throws -> WorkState? {
            var state: WorkState?
            try select.run([.integer(partition), .text(work.description)]) {
                state = try WorkState(work: work, stored: $0.blob(0))
            }
            return state
        }

        func put(_ state: WorkState, of work: WorkKey, in partition: Int) throws {
            if state.isEmpty {
                try delete.run([.integer(partition), .text(work.description)])
            } else {
                try upsert.run([.integer(partition), .text(work.description), .blob(state.stored)])
            }
            try database.changed()
        }

        func count(in partition: Int) throws -> Int {
            var count = 0
            try counting.run([.integer(partition)]) { count = $0.integer(0) }
            return count
        }
    }
}
