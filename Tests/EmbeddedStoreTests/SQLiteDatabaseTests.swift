import EmbeddedStore
import Foundation
import Testing

@Suite("SQLite, as the index's stores use it")
struct SQLiteDatabaseTests {
    static func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-\(UUID().uuidString).sqlite").path
    }

    @Test("rows go in and come back with their bytes; an error names the statement; a file left behind is replaced")
    func roundTrip() throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let database = try SQLiteDatabase(recreating: path, cacheBytes: 1 << 20)
            try database.execute("CREATE TABLE t (k TEXT PRIMARY KEY, n INTEGER, b BLOB) WITHOUT ROWID")
            let insert = try database.prepare("INSERT INTO t (k, n, b) VALUES (?1, ?2, ?3)")
            // Bytes SQLite must not cut at a zero, and text with an accent and a separator.
            try insert.run([.text("é\u{1F}1"), .integer(-7), .blob([0, 1, 0, 255])])
            try insert.run([.text("b"), .integer(1 << 40), .blob([])])
            var rows: [String] = []
            try database.prepare("SELECT k, n, b FROM t ORDER BY k").run([]) {
                rows.append("\($0.text(0)) \($0.integer(1)) \($0.blob(2))")
            }
            #expect(rows == ["b 1099511627776 []", "é\u{1F}1 -7 [0, 1, 0, 255]"])
            let error = #expect(throws: SQLiteError.self) { try insert.run([.text("b"), .integer(0), .blob([])]) }
            #expect(error?.description.contains("UNIQUE") == true, "\(String(describing: error))")
            #expect(error?.description.contains("INSERT INTO t") == true)
            #expect(error?.failureClass == .forNow)
            // The statement is usable again after a failure.
            try insert.run([.text("c"), .integer(0), .blob([1])])
        }
        let again = try SQLiteDatabase(recreating: path, cacheBytes: 1 << 20)
        #expect(throws: SQLiteError.self) { try again.execute("SELECT * FROM t") }
    }

    @Test("a folder that cannot hold the file is a clear error")
    func unwritable() {
        let error = #expect(throws: SQLiteError.self) {
            try SQLiteDatabase(recreating: "/proc/no-such-folder/x.sqlite", cacheBytes: 1 << 20)
        }
        #expect(error?.description.contains("/proc/no-such-folder/x.sqlite") == true, "\(String(describing: error))")
    }
}
