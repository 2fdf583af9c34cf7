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
}
