import CSQLite
import Foundation

/// One SQLite database file, opened for a store that is scratch state: no journal, no fsync, one
/// connection holding the file, its changes in a transaction committed every so many
/// (``changed()``), so a change costs no commit of its own. Not safe to share between threads at
/// once: its owner calls it from one thread at a time (the calls block on the disk, so never from
/// the cooperative pool).
package final class SQLiteDatabase {
    private let handle: OpaquePointer
    package let path: String
    /// Changes since the open transaction began.
    private var changes = 0
    private static let changesACommit = 10_000

    /// Opens `path` afresh: whatever a previous process left there is removed first (the store
    /// is rebuilt from its changelog, and a file left by a killed process may be torn); makes
    /// `schema` and opens the first transaction.
    /// - Parameter cacheBytes: the pages SQLite keeps in memory; the rest is read from the file.
    package init(recreating path: String, cacheBytes: Int, schema: String) throws {
        for suffix in ["", "-journal", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let opened { sqlite3_close_v2(opened) }
            throw SQLiteError(code: code, message: "\(message): \(path)", statement: nil)
        }
        (handle, self.path) = (opened, path)
        // Scratch state: a crash loses the file anyway, so nothing is journalled or synced.
        try execute(
            """
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;
            PRAGMA temp_store = MEMORY; PRAGMA cache_size = -\(max(cacheBytes / 1024, 64));
            """)
        try execute(schema + "; BEGIN;")
    }

    /// Counts a change made; commits the open transaction every ``changesACommit`` and opens the next.
    package func changed() throws {
        changes += 1
        guard changes >= Self.changesACommit else { return }
        try execute("COMMIT; BEGIN;")
        changes = 0
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that take no parameters and return no rows.
    package func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            throw SQLiteError(
                code: code, message: message.map { String(cString: $0) } ?? lastMessage, statement: sql)
        }
    }

    package func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError(code: code, message: lastMessage, statement: sql)
        }
        return SQLiteStatement(statement, database: self, sql: sql)
    }

    var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }
}
