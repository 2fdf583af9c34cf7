import ArtpipeSupport
import Foundation
import Testing

@Suite("Atomic files")
struct AtomicFileTests {
    /// An empty folder of its own; the test removes it.
    static func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("a file is written whole, leaving no temporary file beside it")
    func writesWhole() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("index.json")
        try AtomicFile.write(Data("first".utf8), to: target)
        try AtomicFile.write(Data("second".utf8), to: target)
        #expect(try String(contentsOf: target, encoding: .utf8) == "second")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["index.json"])
    }

    @Test("files written together are each whole, in their folders, with the status each has now")
    func writesTogether() throws {
        let directory = try Self.scratchDirectory()
        let works = directory.appendingPathComponent("works")
        try FileManager.default.createDirectory(at: works, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try AtomicFile.write(Data("old".utf8), to: directory.appendingPathComponent("index.json"))
        let files = [
            (data: Data("manifest".utf8), url: directory.appendingPathComponent("index.json")),
            (data: Data(repeating: 7, count: 100_000), url: works.appendingPathComponent("0001.jsonl")),
            (data: Data(), url: works.appendingPathComponent("0002.jsonl")),
        ]
        let statuses = try AtomicFile.write(files)
        for (file, status) in zip(files, statuses) {
            #expect(try Data(contentsOf: file.url) == file.data)
            var now = stat()
            #expect(stat(file.url.path, &now) == 0 && now.st_ino == status.st_ino && now.st_size == file.data.count)
        }
        #expect(statuses.count == 3)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["index.json", "works"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: works.path).sorted() == ["0001.jsonl", "0002.jsonl"])
    }

    @Test("files written together, one of which cannot be: an error naming it, no temporary left, nothing torn")
    func writesTogetherFailing() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let kept = directory.appendingPathComponent("a.json")
        try AtomicFile.write(Data("before".utf8), to: kept)
        let files = [
            (data: Data("after".utf8), url: kept),
            (data: Data("x".utf8), url: directory.appendingPathComponent("missing/b.json")),
        ]
        let error = try #require(throws: FileWriteError.self) { try AtomicFile.write(files) }
        #expect(error.path.contains("missing"))
        // Nothing was renamed: the failure came while writing the temporary files.
        #expect(try String(contentsOf: kept, encoding: .utf8) == "before")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["a.json"])
    }

    @Test("more files than are open at once: each whole; one failing in a later run leaves no temporary, renames none")
    func writesManyInRuns() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let count = AtomicFile.openAtOnce * 2 + 3
        let files = (0..<count).map {
            (
                data: Data(repeating: UInt8($0 % 256), count: 1_000 + $0),
                url: directory.appendingPathComponent("\($0).jsonl")
            )
        }
        let statuses = try AtomicFile.write(files)
        #expect(statuses.count == count)
        for (file, status) in zip(files, statuses) {
            #expect(try Data(contentsOf: file.url) == file.data)
            #expect(status.st_size == file.data.count)
        }
        // The failure comes in the last run, after two runs' temporaries were written and flushed.
        var failing = files.map { (data: Data("again".utf8), url: $0.url) }
        failing[count - 1].url = directory.appendingPathComponent("missing/last.jsonl")
        let error = try #require(throws: FileWriteError.self) { try AtomicFile.write(failing) }
        #expect(error.path.contains("missing"))
        #expect(try Data(contentsOf: files[0].url) == files[0].data)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == count)
    }

    @Test("a file that cannot be written fails as a file error, not as bad configuration")
    func failureIsAFileError() throws {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/index.json")
        let error = try #require(throws: FileWriteError.self) { try AtomicFile.write(Data(), to: missing) }
        #expect(error.path.hasPrefix("/nonexistent-"))
        #expect(!error.reason.isEmpty)
    }
}

@Suite("Temporary files left by killed writes")
struct StaleTemporaryTests {
    @Test("a sweep removes old temporaries of killed writes and nothing else")
    func sweep() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sweep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let hourAgo = Date().addingTimeInterval(-3_600)
        let stale = directory.appendingPathComponent(".SK-A-1.jpg.4242.1234567.tmp")
        let fresh = directory.appendingPathComponent(".SK-A-2.jpg.4242.7654321.tmp")
        let oldButOurs = directory.appendingPathComponent("index.json")
        let oldDotFile = directory.appendingPathComponent(".keep")
        for url in [stale, fresh, oldButOurs, oldDotFile] { try Data("x".utf8).write(to: url) }
        for url in [stale, oldButOurs, oldDotFile] {
            try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: url.path)
        }
        #expect(AtomicFile.removeStaleTemporaries(in: directory) == 1)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(left == [fresh.lastPathComponent, "index.json", ".keep"])
    }
}
