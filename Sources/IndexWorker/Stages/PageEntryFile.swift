import EmbeddedStore
import StreamTasks
import Synchronization

/// The pages stage's entries on the copy's own disk: one SQLite file, each page's entry (its
/// works, images and thumbnails) by page id, in the stores' compact form (a page's entry is read
/// and written with each of its messages; JSON cost more than the row). As ``WorkStore``'s
/// file: made afresh by each process unless sealed at a clean stop and kept with its checkpoint
/// (``StoreCheckpoint``). Each assignment of a partition gets a table of its own
/// (``table(of:)``), so a late change of an earlier assignment never lands in the rows of the
/// next; a partition the checkpoint names keeps its table once (``keptTable(of:)``). Restores of
/// several partitions write at once: calls take its lock.
package final class PageEntryFile: Sendable {
    private let held: Mutex<Held>

    /// - Parameter kept: the checkpoint the file at `path` was sealed with, checked already: the
    ///   file is opened as it is; nil: made afresh.
    init(path: String, cacheBytes: Int, kept: StoreCheckpoint? = nil) throws {
        held = Mutex(try Held(path: path, cacheBytes: cacheBytes, kept: kept))
    }

    /// The partition's table as the file holds it (the one its checkpoint names), with where its
    /// rows stand in the changelog, when a checkpoint kept it and it was not taken since; then
    /// nil ever after.
    func keptTable(of partition: Int) throws -> (table: PageEntriesOnDisk, mark: StoreCheckpoint.Mark)? {
        try held.withLock { held in
            guard let mark = held.kept.removeValue(forKey: partition), let slot = mark.slot else { return nil }
            // Rows of an ended assignment's table, written late, are not the partition's.
            try held.clearOthers.run([.integer(partition), .integer(slot)])
            try held.database.changed()
            return (PageEntriesOnDisk(file: self, partition: partition, slot: slot), mark)
        }
    }

    /// The outline of each entry of a table, in no order: read without the entries' works.
    func outlines(of table: PageEntriesOnDisk) throws -> [PageOutline] {
        try held.withLock { held in
            var outlines: [PageOutline] = []
            try held.everyEntry.run([.integer(table.slot)]) {
                var reader = CompactReader($0.blob(0))
                outlines.append(try reader.pageOutline())
            }
            return outlines
        }
    }

    /// Seals the file (``SQLiteDatabase/seal()``) and returns the marks of its partitions:
    /// `marks`, with those a checkpoint kept that were not taken since; and its size.
    func seal(with marks: [Int: StoreCheckpoint.Mark]) throws -> (
        partitions: [Int: StoreCheckpoint.Mark], fileBytes: Int64
    ) {
        try held.withLock { held in
            (held.kept.merging(marks) { $1 }, try held.database.seal())
        }
    }

    /// A new, empty table for `partition`, whose earlier tables' rows are removed: it is read
    /// again from its changelog.
    func table(of partition: Int) throws -> PageEntriesOnDisk {
        let slot = try held.withLock { held in
            held.kept[partition] = nil
            try held.clear.run([.integer(partition)])
            try held.database.changed()
            held.slots += 1
            return held.slots
        }
        return PageEntriesOnDisk(file: self, partition: partition, slot: slot)
    }

    func entry(of pageId: String, slot: Int) throws -> PageEntry? {
        let bytes = try held.withLock { held in
            var bytes: [UInt8]?
            try held.select.run([.integer(slot), .text(pageId)]) { bytes = $0.blob(0) }
            return bytes
        }
        return try bytes.map {
            var reader = CompactReader($0)
            return try reader.pageEntry()
        }
    }

    func set(_ entry: PageEntry, partition: Int, slot: Int) throws {
        var writer = CompactWriter()
        writer.write(entry)
        let bytes = writer.bytes
        try held.withLock { held in
            try held.upsert.run([.integer(partition), .integer(slot), .text(entry.pageId), .blob(bytes)])
            try held.database.changed()
        }
    }

    /// The database and its statements, used under the lock only.
    private struct Held {
        let database: SQLiteDatabase
        let select: SQLiteStatement
        let upsert: SQLiteStatement
        let clear: SQLiteStatement
        let clearOthers: SQLiteStatement
        let everyEntry: SQLiteStatement
        var slots = 0
        /// The partitions whose rows a checkpoint vouched for, until each is taken.
        var kept: [Int: StoreCheckpoint.Mark] = [:]

        /// A rowid table with a unique key: an entry is a page's hundred works, kilobytes.
        static let schema = """
            CREATE TABLE entries (partition INTEGER NOT NULL, slot INTEGER NOT NULL, page TEXT NOT NULL,
                entry BLOB NOT NULL, UNIQUE (slot, page));
            CREATE INDEX entries_by_partition ON entries (partition)
            """

        init(path: String, cacheBytes: Int, kept: StoreCheckpoint?) throws {
            database = try SQLiteDatabase(path, keeping: kept != nil, cacheBytes: cacheBytes, schema: Self.schema)
            self.kept = kept?.partitions ?? [:]
            select = try database.prepare("SELECT entry FROM entries WHERE slot = ?1 AND page = ?2")
            upsert = try database.prepare(
                "INSERT INTO entries (partition, slot, page, entry) VALUES (?1, ?2, ?3, ?4)"
                    + " ON CONFLICT DO UPDATE SET entry = ?4")
            clear = try database.prepare("DELETE FROM entries WHERE partition = ?1")
            clearOthers = try database.prepare("DELETE FROM entries WHERE partition = ?1 AND slot != ?2")
            everyEntry = try database.prepare("SELECT entry FROM entries WHERE slot = ?1")
            // Slots of the tables a checkpoint kept are taken, empty ones too: new tables get the next ones.
            try database.prepare("SELECT coalesce(max(slot), 0) FROM entries").run([]) { slots = $0.integer(0) }
            slots = max(slots, self.kept.values.compactMap(\.slot).max() ?? 0)
        }
    }
}
