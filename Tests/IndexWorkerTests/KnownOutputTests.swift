import Foundation
import ObjectStorage
import Testing

@testable import IndexWorker

/// What a copy knows of the output between listings, against a folder and a second writer.
@Suite("What a copy knows of its output")
struct KnownOutputTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("known-output-\(UUID().uuidString)")
    let shards = IndexShards(count: 3)

    func known(relistEvery: Duration = .seconds(3_600)) -> (KnownOutput, FolderOutputStore) {
        let store = FolderOutputStore(directory: folder)
        return (KnownOutput(output: store, shards: shards, relistEvery: relistEvery), store)
    }

    @Test("only bytes that differ from what a file holds are written; a file is read once")
    func onlyChangesAreWritten() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (known, store) = self.known()
        let path = IndexLayout.worksPath(4)
        try store.write(Array("before\n".utf8), to: path, durable: false)
        #expect(try known.change(Array("before\n".utf8), at: path) == nil, "the file holds them")
        let change = try #require(try known.change(Array("after\n".utf8), at: path))
        #expect(try known.write([change]) == 1)
        #expect(try store.read(path) == Array("after\n".utf8))
        // Known now: another writer's bytes are not read back until the shard is forgotten.
        try store.write(Array("theirs\n".utf8), to: path, durable: false)
        #expect(try known.change(Array("after\n".utf8), at: path) == nil)
        known.forgetFiles(of: shards.shard(ofBucket: 4))
        #expect(try known.change(Array("after\n".utf8), at: path) != nil)
    }

    @Test("a bucket file another writer replaced is found by the next listing read anew, and names its shard")
    func replacedFilesAreFound() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (known, store) = self.known()
        _ = try known.listed()
        let (mine, other) = (IndexLayout.worksPath(4), IndexLayout.worksPath(5))
        for path in [mine, other] {
            _ = try known.write([try #require(try known.change(Array("mine\n".utf8), at: path))])
        }
        try store.write(Array("theirs\n".utf8), to: mine, durable: false)
        try known.relistIfDue(again: false)
        #expect(known.replaced.isEmpty, "between listings a copy knows the output as its own writes left it")
        try known.relistIfDue(again: true)
        #expect(known.replaced == [shards.shard(ofBucket: 4)])
        known.forgetFiles(of: shards.shard(ofBucket: 4))
        #expect(known.replaced.isEmpty)
    }

    @Test("a file removed is forgotten: the same bytes are written again when it comes back")
    func removedFilesAreForgotten() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (known, store) = self.known()
        let path = "gallery/letter-q.html"
        _ = try known.write([try #require(try known.change(Array("<p>Q</p>".utf8), at: path))])
        try known.remove(path)
        #expect(try store.read(path) == nil)
        let again = try #require(try known.change(Array("<p>Q</p>".utf8), at: path))
        #expect(try known.write([again]) == 1)
        #expect(try store.read(path) == Array("<p>Q</p>".utf8))
    }
}
