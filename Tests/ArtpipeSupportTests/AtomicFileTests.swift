import ArtpipeSupport
import Foundation
import Testing

@Suite("Atomic files")
struct AtomicFileTests {
    @Test("a file is written whole, leaving no temporary file beside it")
    func writesWhole() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("index.json")
        try AtomicFile.write(Data("first".utf8), to: target)
        try AtomicFile.write(Data("second".utf8), to: target)
        #expect(try String(contentsOf: target, encoding: .utf8) == "second")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["index.json"])
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
