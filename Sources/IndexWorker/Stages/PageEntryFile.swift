import EmbeddedStore
import Synchronization

/// The pages stage's entries on the copy's own disk: one SQLite file, each page's entry (its
/// works, images and thumbnails) by page id, in the stores' compact form (a page's entry is read
/// and written with each of its messages; JSON cost more than the row). Scratch, as
/// ``WorkStore``'s file: made afresh by each process. Each assignment of a partition gets a
/// table of its own (``table(of:)``), so a late change of an earlier assignment never lands in
/// the rows of the next. Restores of several partitions write at once: calls take its lock.
package final class PageEntryFile: Sendable {
    private let held: Mutex<Held>

    init(path: String, cacheBytes: Int) throws {
        held = Mutex(try Held(path: path, cacheBytes: cacheBytes))
    }

    /// A new, empty table for `partition`, whose earlier tables' rows are removed: it is read
    /// again from its changelog.
    func table(of partition: Int) throws -> PageEntriesOnDisk {
        let slot = try held.withLock { held in
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
        var slots = 0

        init(path: String, cacheBytes: Int) throws {
            // A rowid table with a unique key: an entry is a page's hundred works, kilobytes.
            database = try SQLiteDatabase(
                recreating: path, cacheBytes: cacheBytes,
                schema: """
                    CREATE TABLE entries (partition INTEGER NOT NULL, slot INTEGER NOT NULL, page TEXT NOT NULL,
                        entry BLOB NOT NULL, UNIQUE (slot, page));
                    CREATE INDEX entries_by_partition ON entries (partition)
                    """)
            select = try database.prepare("SELECT entry FROM entries WHERE slot = ?1 AND page = ?2")
            upsert = try database.prepare(
                "INSERT INTO entries (partition, slot, page, entry) VALUES (?1, ?2, ?3, ?4)"
                    + " ON CONFLICT DO UPDATE SET entry = ?4")
            clear = try database.prepare("DELETE FROM entries WHERE partition = ?1")
        }
    }
}
