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
