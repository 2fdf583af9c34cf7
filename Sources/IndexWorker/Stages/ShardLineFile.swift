import EmbeddedStore
import Foundation

/// The artist stage's lines on the copy's own disk: one SQLite file, each work's line by shard
/// and work key, found again by artist. As ``WorkStore``'s file: made afresh by each process
/// unless sealed at a clean stop (``seal()``) and kept, a shard emptied when it is taken anew
/// (``table(of:)``), and a shard let go emptied a part at a time (``dropSome(of:limit:)``).
/// Used under its owner's lock.
final class ShardLineFile: @unchecked Sendable {
    private let database: SQLiteDatabase
    private let select: SQLiteStatement
    private let upsert: SQLiteStatement
    private let delete: SQLiteStatement
    private let byArtist: SQLiteStatement
    private let clear: SQLiteStatement
    private let clearSome: SQLiteStatement
    private let anyLine: SQLiteStatement
    private let counting: SQLiteStatement
    private let artistCounting: SQLiteStatement

    /// Rowid tables with a unique key, not WITHOUT ROWID: those copy whole rows into their
    /// interior pages, and a line is a few hundred bytes (SQLite advises them for rows under a
    /// twentieth of a page); profiled, most of a million-work rebuild went to moving them.
    static let schema = """
        CREATE TABLE lines (shard INTEGER NOT NULL, work TEXT NOT NULL, artist TEXT NOT NULL,
            line BLOB NOT NULL, UNIQUE (shard, work));
        CREATE INDEX lines_by_artist ON lines (shard, artist)
        """

    /// - Parameter keeping: open the file a clean stop sealed, as it is; else make it afresh.
    init(path: String, cacheBytes: Int, keeping: Bool = false) throws {
        database = try SQLiteDatabase(path, keeping: keeping, cacheBytes: cacheBytes, schema: Self.schema)
        select = try database.prepare("SELECT artist, line FROM lines WHERE shard = ?1 AND work = ?2")
        upsert = try database.prepare(
            "INSERT INTO lines (shard, work, artist, line) VALUES (?1, ?2, ?3, ?4)"
                + " ON CONFLICT DO UPDATE SET artist = ?3, line = ?4")
        delete = try database.prepare("DELETE FROM lines WHERE shard = ?1 AND work = ?2")
        byArtist = try database.prepare("SELECT line FROM lines WHERE shard = ?1 AND artist = ?2")
        clear = try database.prepare("DELETE FROM lines WHERE shard = ?1")
        clearSome = try database.prepare(
            "DELETE FROM lines WHERE rowid IN (SELECT rowid FROM lines WHERE shard = ?1 LIMIT ?2)")
        anyLine = try database.prepare("SELECT EXISTS (SELECT 1 FROM lines WHERE shard = ?1)")
        counting = try database.prepare("SELECT count(*) FROM lines WHERE shard = ?1")
        artistCounting = try database.prepare(
            "SELECT artist, count(*) FROM lines INDEXED BY lines_by_artist WHERE shard = ?1 GROUP BY artist")
    }

    /// The shard's table as the file holds it: lines a checkpoint kept.
    func keptTable(of shard: Int) -> ShardLinesOnDisk {
        ShardLinesOnDisk(file: self, shard: shard)
    }

    /// Each artist of the shard with its count of lines, from the index by artist alone.
    func artistCounts(of shard: Int) throws -> [(name: String, count: Int)] {
        var artists: [(name: String, count: Int)] = []
        try artistCounting.run([.integer(shard)]) { artists.append(($0.text(0), $0.integer(1))) }
        return artists
    }

    /// Seals the file (``SQLiteDatabase/seal()``); returns its size.
    func seal() throws -> Int64 {
        try database.seal()
    }

    /// The shard's table, emptied: it is read again from its changelog.
    func table(of shard: Int) throws -> ShardLinesOnDisk {
        try drop(shard)
        return ShardLinesOnDisk(file: self, shard: shard)
    }

    /// Forgets the shard's lines, all at once: it is read again from its start.
    func drop(_ shard: Int) throws {
        try clear.run([.integer(shard)])
    }

    /// Forgets up to `limit` of the shard's lines; returns whether any are left. A shard let go
    /// holds millions at ten million works: forgotten whole, it held the lock for seconds.
    func dropSome(of shard: Int, limit: Int) throws -> Bool {
        try clearSome.run([.integer(shard), .integer(limit)])
        try database.changed()
        var left = false
        try anyLine.run([.integer(shard)]) { left = $0.integer(0) != 0 }
        return left
    }

    /// How many lines the shard holds, for the tests.
    func count(in shard: Int) throws -> Int {
        var count = 0
        try counting.run([.integer(shard)]) { count = $0.integer(0) }
        return count
    }

    func row(of work: WorkKey, in shard: Int) throws -> ShardWorks.Row? {
        var row: ShardWorks.Row?
        try select.run([.integer(shard), .text(work.description)]) {
            var reader = CompactReader($0.blob(1))
            row = ShardWorks.Row(artist: $0.text(0), work: try reader.indexedWork())
        }
        return row
    }

    func set(_ row: ShardWorks.Row?, of work: WorkKey, in shard: Int) throws {
        if let row {
            try upsert.run([
                .integer(shard), .text(work.description), .text(row.artist), .blob(Self.bytes(of: row.work)),
            ])
        } else {
            try delete.run([.integer(shard), .text(work.description)])
        }
        try database.changed()
    }

    private static func bytes(of work: ArtistIndex.Work) -> [UInt8] {
        var writer = CompactWriter()
        writer.write(work)
        return writer.bytes
    }

    func works(of artist: String, in shard: Int) throws -> [ArtistIndex.Work] {
        var works: [ArtistIndex.Work] = []
        try byArtist.run([.integer(shard), .text(artist)]) {
            var reader = CompactReader($0.blob(0))
            works.append(try reader.indexedWork())
        }
        return works
    }
}
