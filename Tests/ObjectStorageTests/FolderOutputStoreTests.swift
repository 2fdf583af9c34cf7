import ArtpipeSupport
import ArtpipeTestKit
import Dispatch
import Foundation
import ObjectStorage
import Synchronization
import Testing

@Suite("Published files in a folder")
struct FolderOutputStoreTests {
    @Test("many threads writing the first files of new folders at once: every write succeeds")
    func concurrentFirstWrites() throws {
        let failures = Mutex<[String]>([])
        for round in 0..<20 {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                UniqueName.make("folder-store"))
            let store = FolderOutputStore(directory: directory)
            // As the index publisher renders buckets: one per thread, into folders not made yet.
            DispatchQueue.concurrentPerform(iterations: 16) { number in
                do {
                    try store.write(Array("\(number)".utf8), to: "works/\(number).jsonl", durable: false)
                    try store.write(Array("\(number)".utf8), to: "gallery/\(number).html", durable: false)
                } catch {
                    failures.withLock { $0.append("round \(round): \(error)") }
                }
            }
            #expect(try store.versions(in: "works").count == 16)
            try? FileManager.default.removeItem(at: directory)
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 }.prefix(3))")
    }

    @Test("a folder not made yet lists as empty; one that cannot be listed is an error, not an empty folder")
    func unlistableFolder() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("folder-store"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FolderOutputStore(directory: directory)
        #expect(try store.versions(in: "works").isEmpty)
        // A file where the folder should be: no listing can be read there.
        try store.write(Array("x".utf8), to: "gallery", durable: false)
        let error = try #require(throws: FileWriteError.self) { try store.versions(in: "gallery") }
        #expect(error.description.hasPrefix("cannot list \(directory.appendingPathComponent("gallery").path): "))
    }

    @Test("files written together into folders not made yet: each there, with the version listed")
    func writesTogetherIntoNewFolders() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("folder-store"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FolderOutputStore(directory: directory)
        let files = [("works/1.jsonl", [UInt8]("a".utf8)), ("gallery/b/1.html", [UInt8]("b".utf8)), ("index.json", [])]
        let versions = try store.write(files.map { (path: $0.0, bytes: $0.1) }, durable: true)
        for ((path, bytes), version) in zip(files, versions) {
            #expect(try store.read(path) == bytes)
            #expect(try store.version(of: path) == version)
        }
        #expect(versions.count == 3 && Set(versions).count == 3)
    }
}
