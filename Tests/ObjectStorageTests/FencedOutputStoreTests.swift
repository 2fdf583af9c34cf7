import ArtpipeSupport
import Foundation
import ObjectStorage
import Synchronization
import Testing

/// Every write and removal asks the fence; a refusal is for the moment and leaves the output as it was.
@Suite("An output behind a fence")
struct FencedOutputStoreTests {
    @Test("while fenced nothing is written or removed, and the refusal is for the moment; reads pass")
    func fencedWritesAreRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fenced-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let open = Atomic<Bool>(true)
        let store = FencedOutputStore(FolderOutputStore(directory: folder)) { open.load(ordering: .relaxed) }
        try store.write(Array("one".utf8), to: "works/0001.jsonl", durable: false)
        open.store(false, ordering: .relaxed)
        for attempt in [
            { try store.write(Array("two".utf8), to: "works/0001.jsonl", durable: false) },
            { try store.write([(path: "works/0002.jsonl", bytes: Array("two".utf8))], durable: false) },
            { try store.remove("works/0001.jsonl") },
        ] as [() throws -> Void] {
            let error = #expect(throws: OutputFencedError.self) { try attempt() }
            #expect(error.map { FailureClass.of($0) } == .forNow)
        }
        #expect(try store.read("works/0001.jsonl") == Array("one".utf8))
        #expect(try store.read("works/0002.jsonl") == nil)
        open.store(true, ordering: .relaxed)
        try store.write(Array("two".utf8), to: "works/0001.jsonl", durable: false)
        #expect(try store.read("works/0001.jsonl") == Array("two".utf8))
    }
}
