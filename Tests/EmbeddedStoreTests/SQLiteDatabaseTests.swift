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
            let database = try SQLiteDatabase(
                recreating: path, cacheBytes: 1 << 20, schema: "CREATE TABLE t (k TEXT PRIMARY KEY, n INTEGER, b BLOB)")
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
        let again = try SQLiteDatabase(recreating: path, cacheBytes: 1 << 20, schema: "CREATE TABLE u (k TEXT)")
        #expect(throws: SQLiteError.self) { try again.execute("SELECT * FROM t") }
    }

    @Test("changes go on past a commit of the open transaction, and every one is there")
    func commitsAsItGoes() throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try SQLiteDatabase(
            recreating: path, cacheBytes: 64 << 10, schema: "CREATE TABLE t (n INTEGER PRIMARY KEY)")
        let insert = try database.prepare("INSERT INTO t (n) VALUES (?1)")
        for number in 0..<25_000 {
            try insert.run([.integer(number)])
            try database.changed()
        }
        var count = 0
        try database.prepare("SELECT count(*) FROM t").run([]) { count = $0.integer(0) }
        #expect(count == 25_000)
    }

    @Test("a folder that cannot hold the file is a clear error")
    func unwritable() {
        let error = #expect(throws: SQLiteError.self) {
            try SQLiteDatabase(recreating: "/proc/no-such-folder/x.sqlite", cacheBytes: 1 << 20, schema: "")
        }
        #expect(error?.description.contains("/proc/no-such-folder/x.sqlite") == true, "\(String(describing: error))")
    }
    @Test("sealed, a file is committed and written no more; kept, it opens with its rows, and nothing is made afresh")
    func sealAndKeep() throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let database = try SQLiteDatabase(
                recreating: path, cacheBytes: 1 << 20, schema: "CREATE TABLE t (k TEXT PRIMARY KEY, n INTEGER)")
            let insert = try database.prepare("INSERT INTO t (k, n) VALUES (?1, ?2)")
            for number in 0..<100 { try insert.run([.text("k\(number)"), .integer(number)]) }
            let bytes = try database.seal()
            #expect(bytes == (try SQLiteDatabase.size(of: path)) && bytes > 0)
            #expect(database.isSealed)
            #expect(throws: SQLiteError.self) { try insert.run([.text("late"), .integer(0)]) }
            #expect(throws: SQLiteError.self) { try database.changed() }
            #expect(try database.seal() == bytes, "sealed once")
        }
        do {
            // A statement that failed: with no journal, what it did stays; the file is not sealed.
            let failing = try SQLiteDatabase(
                recreating: path + "-failing", cacheBytes: 1 << 20, schema: "CREATE TABLE u (k TEXT PRIMARY KEY)")
            defer { try? FileManager.default.removeItem(atPath: path + "-failing") }
            let insert = try failing.prepare("INSERT INTO u (k) VALUES (?1)")
            try insert.run([.text("a")])
            #expect(throws: SQLiteError.self) { try insert.run([.text("a")]) }
            let error = #expect(throws: SQLiteError.self) { try failing.seal() }
            #expect(error?.description.contains("failed earlier") == true, "\(String(describing: error))")
        }
        #expect(throws: SQLiteError.self, "made with another schema") {
            try SQLiteDatabase(keeping: path, cacheBytes: 1 << 20, schema: "CREATE TABLE t (k TEXT)")
        }
        let kept = try SQLiteDatabase(
            keeping: path, cacheBytes: 1 << 20, schema: "CREATE TABLE t (k TEXT PRIMARY KEY, n INTEGER)")
        var count = 0
        try kept.prepare("SELECT count(*) FROM t").run([]) { count = $0.integer(0) }
        #expect(count == 100)
        #expect(throws: SQLiteError.self) {
            try SQLiteDatabase(keeping: path + "-none", cacheBytes: 1 << 20, schema: "")
        }
    }
}

@Suite("The stores' compact bytes")
struct CompactBytesTests {
    @Test("numbers of every size and sign, text in any script, absent values and lists read back as written")
    func roundTrip() throws {
        var writer = CompactWriter()
        let numbers = [0, 1, -1, 63, -64, 64, 127, 128, 300, -300, Int.max, Int.min, 1 << 40]
        for number in numbers { writer.write(number) }
        writer.write("Katsushika Hokusai 葛飾北斎 \u{1F}")
        writer.write(String?.none)
        writer.write(Int?.some(-5))
        writer.write(["b": "2", "a": "1"])
        writer.write([3, 4]) { $0.write($1) }
        var reader = CompactReader(writer.bytes)
        #expect(try numbers.map { _ in try reader.int() } == numbers)
        #expect(try reader.string() == "Katsushika Hokusai 葛飾北斎 \u{1F}")
        #expect(try reader.optionalString() == nil)
        #expect(try reader.optionalInt() == -5)
        #expect(try reader.pairs() == ["a": "1", "b": "2"])
        #expect(try reader.list { try $0.int() } == [3, 4])
        #expect(reader.isAtEnd)
    }

    @Test("bytes cut short or holding a wrong flag are an error, never a guess")
    func malformed() {
        var writer = CompactWriter()
        writer.write("some text")
        for end in 0..<writer.bytes.count {
            var reader = CompactReader(Array(writer.bytes[..<end]))
            #expect(throws: CompactReader.Malformed.self) { try reader.string() }
        }
        var flag = CompactReader([7])
        #expect(throws: CompactReader.Malformed.self) { try flag.bool() }
        var huge = CompactReader([0xFF, 0xFF, 0xFF, 0x0F])
        #expect(throws: CompactReader.Malformed.self) { try huge.list { try $0.int() } }
    }

}
