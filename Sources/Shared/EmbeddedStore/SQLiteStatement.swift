import CSQLite

/// A prepared statement of a ``SQLiteDatabase``, kept and run again: bound, stepped, reset.
package final class SQLiteStatement {
    private let handle: OpaquePointer
    private let database: SQLiteDatabase
    private let sql: String

    init(_ handle: OpaquePointer, database: SQLiteDatabase, sql: String) {
        (self.handle, self.database, self.sql) = (handle, database, sql)
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The values for the statement's parameters, in order.
    package enum Value {
        case integer(Int)
        case text(String)
        case blob([UInt8])
    }

    /// Runs the statement with `values`, calling `row` for each row it returns.
    package func run(_ values: [Value], row: (SQLiteRow) throws -> Void = { _ in }) throws {
        guard !database.isSealed else { throw database.sealedError(sql) }
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32 =
                switch value {
                case .integer(let number): sqlite3_bind_int64(handle, index, Int64(number))
                case .text(let text): sqlite3_bind_text(handle, index, text, -1, SQLiteStatement.transient)
                case .blob(let bytes):
                    bytes.withUnsafeBytes {
                        sqlite3_bind_blob64(handle, index, $0.baseAddress, UInt64($0.count), SQLiteStatement.transient)
                    }
                }
            guard code == SQLITE_OK else { throw error(code) }
        }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw error(code) }
            try row(SQLiteRow(handle: handle))
        }
    }

    private func error(_ code: Int32) -> SQLiteError {
        let error = SQLiteError(code: code, message: database.lastMessage, statement: sql)
        database.failed(error)
        return error
    }

    /// SQLite copies what is bound before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// One row of a statement's result, valid only inside the callback it is passed to.
package struct SQLiteRow {
    let handle: OpaquePointer

    package func integer(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    package func text(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: text)
    }

    package func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}
