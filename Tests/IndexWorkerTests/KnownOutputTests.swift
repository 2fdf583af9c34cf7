import ArtpipeTestKit
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

    @Test(
        "a write prepared before another copy replaced the file is refused and changes nothing; the next listing names the shard, whose files are then written over the other's versions"
    )
    func staleWritesAreRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (stale, store) = self.known()
        let successor = KnownOutput(output: store, shards: shards, relistEvery: .seconds(3_600))
        let (path, fresh) = (IndexLayout.worksPath(4), IndexLayout.worksPath(7))
        // A file the listing does not have, written meanwhile by another writer.
        _ = try stale.listed()
        try store.write(Array("theirs\n".utf8), to: fresh, durable: false)
        let absent = try #require(try stale.change(Array("mine\n".utf8), at: fresh))
        #expect(throws: OutputConflict.self) { try stale.write([absent]) }
        #expect(try store.read(fresh) == Array("theirs\n".utf8))
        // Listed anew before its next write: over what is there now.
        _ = try stale.write([try #require(try stale.change(Array("old\n".utf8), at: path))])
        // The successor lists, then writes the file; the stale copy, from its own listing, after it.
        _ = try successor.listed()
        _ = try successor.write([try #require(try successor.change(Array("new\n".utf8), at: path))])
        let change = try #require(try stale.change(Array("older\n".utf8), at: path))
        #expect(throws: OutputConflict.self) { try stale.write([change]) }
        #expect(try store.read(path) == Array("new\n".utf8))
        // The next listing names the shard of which another writer replaced a file; what is
        // written over the versions listed now passes.
        _ = try stale.listed()
        #expect(stale.replaced == [shards.shard(ofBucket: 4)])
        stale.forgetFiles(of: shards.shard(ofBucket: 4))
        _ = try stale.write([try #require(try stale.change(Array("again\n".utf8), at: path))])
        #expect(try store.read(path) == Array("again\n".utf8))
    }

    @Test(
        "a file this copy removed that another writer brings back names its shard; a shared file it wrote or read that another writer replaces or removes is named too, until forgotten"
    )
    func broughtBackAndSharedAreFound() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (known, store) = self.known()
        _ = try known.listed()
        let (bucketFile, shared, read) = (IndexLayout.worksPath(4), IndexLayout.manifestPath, "gallery/letter-q.html")
        _ = try known.write([try #require(try known.change(Array("mine\n".utf8), at: bucketFile))])
        try known.remove(bucketFile)
        _ = try known.write([try #require(try known.change(Array("{}".utf8), at: shared))])
        try store.write(Array("<p>Q</p>".utf8), to: read, durable: false)
        _ = try known.listed(again: true)
        #expect(try known.change(Array("<p>Q</p>".utf8), at: read) == nil, "read, not written: the same bytes")
        try known.relistIfDue(again: true)
        #expect(known.replaced.isEmpty && !known.sharedReplaced, "nothing changed behind its back")
        // A stale copy brings the removed file back, and replaces the shared file this copy read.
        try store.write(Array("stale\n".utf8), to: bucketFile, durable: false)
        try store.write(Array("<p>stale</p>".utf8), to: read, durable: false)
        try known.relistIfDue(again: true)
        #expect(known.replaced == [shards.shard(ofBucket: 4)])
        #expect(known.sharedReplaced)
        known.forgetShared()
        known.forgetFiles(of: shards.shard(ofBucket: 4))
        try known.relistIfDue(again: true)
        #expect(known.replaced.isEmpty && !known.sharedReplaced, "forgotten: read anew")
        // A shared file this copy wrote, removed by another writer.
        _ = try known.write([try #require(try known.change(Array("{\"v\":1}".utf8), at: shared))])
        try store.remove(shared)
        try known.relistIfDue(again: true)
        #expect(known.sharedReplaced)
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

    @Test(
        "a shard's files digested as this copy knows them are what a new process's listing shows, in a folder and in a bucket; another writer's file, one gone or one more changes it; a watched file replaced names its shard"
    )
    func filesDigest() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let s3 = try await S3TestStore.start(try #require(S3TestStore.Kind.selected.first))
        defer { s3.stop() }
        let bucket = BucketOutputStore(
            client: try await s3.makeBucket("s3://\(UniqueName.make("known").lowercased())/site"))
        for store in [FolderOutputStore(directory: folder) as any OutputStore, bucket] {
            let fresh = { KnownOutput(output: store, shards: shards, relistEvery: .seconds(3_600)) }
            let writer = fresh()
            _ = try writer.listed()
            // Buckets 1 and 4 are shard 1's, bucket 5 shard 2's.
            let paths = [
                IndexLayout.worksPath(1), GallerySite.bucketPath(1), IndexLayout.worksPath(4), IndexLayout.worksPath(5),
            ]
            for path in paths {
                _ = try writer.write([try #require(try writer.change(Array("mine \(path)\n".utf8), at: path))])
            }
            try writer.remove(GallerySite.bucketPath(1))
            let digest = try writer.filesDigest(of: 1)
            #expect(try fresh().filesDigest(of: 1) == digest, "\(store): as a new process lists it")
            #expect(try fresh().filesDigest(of: 2) != digest)
            try store.write(Array("theirs\n".utf8), to: IndexLayout.worksPath(5), durable: true)
            #expect(try fresh().filesDigest(of: 1) == digest, "\(store): another shard's file")

            // Taken up and watched: another writer's file changes the digest and names the shard.
            let restarted = fresh()
            try restarted.watchFiles(of: 1)
            try store.write(Array("theirs\n".utf8), to: IndexLayout.worksPath(4), durable: true)
            #expect(try fresh().filesDigest(of: 1) != digest, "\(store): replaced")
            try restarted.relistIfDue(again: true)
            #expect(restarted.replaced == [1], "\(store)")

            // One more file, or one gone.
            let replaced = try fresh().filesDigest(of: 1)
            try store.write(Array("more\n".utf8), to: GallerySite.bucketPath(4), durable: true)
            let more = try fresh().filesDigest(of: 1)
            #expect(more != replaced, "\(store): one more")
            try store.remove(IndexLayout.worksPath(1))
            #expect(try fresh().filesDigest(of: 1) != more, "\(store): one gone")
        }
    }
}
