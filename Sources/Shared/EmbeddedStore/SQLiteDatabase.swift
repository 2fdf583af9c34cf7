import CSQLite
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One SQLite database file, opened for a store whose truth is a changelog: no journal, no
/// fsync while it runs, one connection holding the file, its changes in a transaction committed
/// every so many (``changed()``), so a change costs no commit of its own. A file is trusted
/// again only when it was sealed (``seal()``: committed, synced, written no more) and its
/// owner checked it (``init(keeping:cacheBytes:schema:)``); a file left any other way may be torn.
/// Not safe to share between threads at once: its owner calls it from one thread at a time (the
/// calls block on the disk, so never from the cooperative pool).
package final class SQLiteDatabase {
    private let handle: OpaquePointer
    package let path: String
    /// Changes since the open transaction began.
    private var changes = 0
    private static let changesACommit = 10_000
    /// Sealed: committed and synced, no transaction open; every statement then fails.
    package private(set) var isSealed = false
    /// The first statement that failed: with no journal, what it changed before it failed
    /// stays, so the file is never sealed after one.
    private var failure: String?

    /// Opens `path` afresh: whatever a previous process left there is removed first (the store
    /// is rebuilt from its changelog, and a file left by a killed process may be torn); makes
    /// `schema` and opens the first transaction.
    /// - Parameter cacheBytes: the pages SQLite keeps in memory; the rest is read from the file.
    package convenience init(recreating path: String, cacheBytes: Int, schema: String) throws {
        for suffix in ["", "-journal", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
        try self.init(opening: path, cacheBytes: cacheBytes)
        try execute(schema + "; PRAGMA user_version = \(Self.layout(of: schema)); BEGIN;")
    }

    /// Opens the file a sealed database left at `path`, as it is, and opens a transaction: its
    /// owner checked that the file is the one sealed (``seal()``'s size, its checkpoint). Throws
    /// when the file was made with another `schema` than the one given.
    package convenience init(keeping path: String, cacheBytes: Int, schema: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "no database to keep at \(path)", statement: nil)
        }
        try self.init(opening: path, cacheBytes: cacheBytes)
        var layout = 0
        try prepare("PRAGMA user_version").run([]) { layout = $0.integer(0) }
        guard layout == Self.layout(of: schema) else {
            throw SQLiteError(
                code: SQLITE_SCHEMA, message: "\(path) was made with another schema than this version's",
                statement: nil)
        }
        try execute("BEGIN;")
    }

    /// A number for `schema`'s text, kept in the file (`user_version`): FNV-1a, 31 bits.
    static func layout(of schema: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in schema.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash & 0x7FFF_FFFF)
    }

    /// ``init(keeping:cacheBytes:schema:)`` when `keeping`, else ``init(recreating:cacheBytes:schema:)``.
    package convenience init(_ path: String, keeping: Bool, cacheBytes: Int, schema: String) throws {
        if keeping {
            try self.init(keeping: path, cacheBytes: cacheBytes, schema: schema)
        } else {
            try self.init(recreating: path, cacheBytes: cacheBytes, schema: schema)
        }
    }

    private init(opening path: String, cacheBytes: Int) throws {
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let opened { sqlite3_close_v2(opened) }
            throw SQLiteError(code: code, message: "\(message): \(path)", statement: nil)
        }
        (handle, self.path) = (opened, path)
        // Nothing is journalled or synced as it runs: a file is trusted again only once sealed.
        try execute(
            """
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;
            PRAGMA temp_store = MEMORY; PRAGMA cache_size = -\(max(cacheBytes / 1024, 64));
            """)
    }

    /// Commits the open transaction, writes the file through to the disk (fsync) and opens no
    /// other: every statement fails from now on, so the file stays as sealed. Returns its size
    /// in bytes, for its checkpoint.
    package func seal() throws -> Int64 {
        guard !isSealed else { return try Self.size(of: path) }
        if let failure {
            throw SQLiteError(
                code: SQLITE_MISUSE, message: "a statement failed earlier (\(failure)): \(path) is not sealed",
                statement: nil)
        }
        try execute("COMMIT;")
        isSealed = true
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else {
            throw SQLiteError(code: SQLITE_IOERR, message: "cannot open \(path) to sync it", statement: nil)
        }
        defer { close(file) }
        guard fsync(file) == 0 else {
            throw SQLiteError(
                code: SQLITE_IOERR, message: "cannot sync \(path): \(String(cString: strerror(errno)))", statement: nil)
        }
        return try Self.size(of: path)
    }

    /// The size of the file at `path`, in bytes.
    package static func size(of path: String) throws -> Int64 {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw SQLiteError(
                code: SQLITE_IOERR, message: "cannot read the size of \(path): \(String(cString: strerror(errno)))",
                statement: nil)
        }
        return Int64(status.st_size)
    }

    /// Counts a change made; commits the open transaction every ``changesACommit`` and opens the next.
    package func changed() throws {
        guard !isSealed else { throw sealedError(nil) }
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
        guard !isSealed else { throw sealedError(sql) }
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            let error = SQLiteError(
                code: code, message: message.map { String(cString: $0) } ?? lastMessage, statement: sql)
            failed(error)
            throw error
        }
    }

    /// Notes a statement that failed: the file is not sealed after it.
    func failed(_ error: SQLiteError) {
        if failure == nil { failure = error.description }
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

    /// What a statement run after ``seal()`` throws.
    func sealedError(_ statement: String?) -> SQLiteError {
        SQLiteError(
            code: SQLITE_MISUSE, message: "the database \(path) is sealed: written no more", statement: statement)
    }
}
