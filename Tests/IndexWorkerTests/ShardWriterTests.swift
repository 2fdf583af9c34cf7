import Foundation
import ObjectStorage
import StreamTasks
import Synchronization
import Testing

@testable import IndexWorker

/// A shard's files and summary as a copy writes them, over a folder: no broker, no stages.
@Suite("Writing an artist shard")
struct ShardWriterTests {
    /// Shard 0 of two, with `count` works of artists it owns.
    static func shard(works count: Int, shards: IndexShards) throws -> ShardWorks {
        var state = ShardWorks(shard: 0)
        let names = (0..<40).map { "Maker \($0)" }.filter { shards.shard(ofArtist: $0) == 0 }
        for index in 0..<count {
            let work = ArtistIndex.Work(
                objectNumber: "W\(index)", title: "Work \(index)", pageId: "p", page: 1, imageURL: nil,
                thumbnailStatus: "noImage", thumbnailReason: nil, thumbnails: [:], recordId: nil, datestamp: nil)
            try state.apply(
                WorkKey(source: "rijksmuseum", id: "W\(index)", isRecord: false),
                ShardWorks.Row(artist: names[index % names.count], work: work))
        }
        return state
    }

    @Test(
        "a shard written whole under a new assignment; unchanged, nothing; a moved position alone rewrites the summary; a work gone changes its bucket; revoked, nothing; before the index is complete, the summary alone"
    )
    func writes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shard-writer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = FolderOutputStore(directory: folder)
        let shards = IndexShards(count: 2)
        let held = Mutex(true)
        let writer = ShardWriter(
            known: KnownOutput(output: output, shards: shards, relistEvery: .zero),
            summaries: IndexSummaries(output: output), shards: shards, lock: NSLock(),
            holds: { shard, _ in shard == 0 && held.withLock { $0 } }, site: nil, logger: .init(label: "test"))
        let summaryPath = IndexSummaries.shardPath(0)
        let summary = { String(decoding: try output.read(summaryPath) ?? [], as: UTF8.self) }
        var state = try Self.shard(works: 60, shards: shards)
        let (first, second) = (AssignmentEpoch(1), AssignmentEpoch(2))

        // Under a new assignment: written whole, every bucket of its artists, then its summary.
        var (listing, whole) = try writer.plan(held: [0: first], ready: [0])
        #expect(whole(0, first))
        let view = try state.view(shards: shards, whole: true)
        let written = try writer.write(
            view, last: true, listing: listing, position: 7, bootstrapped: true, epoch: first)
        #expect(written.files > 0 && written.summary == 1, "the summary's sequence number given back")
        #expect(try summary().contains("\"position\":7"))
        (listing, whole) = try writer.plan(held: [0: first], ready: [0])
        #expect(!whole(0, first) && whole(0, second), "written under the first assignment only")

        // Nothing changed: nothing written; the position alone moved: the summary again.
        let unchanged = try writer.write(
            try state.view(shards: shards, whole: false), last: true, listing: listing, position: 7,
            bootstrapped: true, epoch: first)
        #expect(unchanged.files == 0 && unchanged.summary == 1, "the same summary: not written again")
        let moved = try writer.writeMovedPositions([0: 9], held: [0: first], written: [])
        #expect(moved.map { "\($0.shard) \($0.epoch == first) \($0.sequence)" } == ["0 true 2"])
        #expect(try summary().contains("\"position\":9"))
        // Not under the assignment it was written under: left to its whole write.
        #expect(try writer.writeMovedPositions([0: 11], held: [0: second], written: []).isEmpty)
        #expect(try summary().contains("\"position\":9"))

        // A work gone: its bucket's file changes, and no other.
        try state.apply(WorkKey(source: "rijksmuseum", id: "W0", isRecord: false), nil)
        let partial = try state.view(shards: shards, whole: false)
        let changed = try #require(partial.buckets)
        #expect(changed.count == 1)
        let bucketFile = IndexLayout.worksPath(try #require(changed.first))
        let before = try output.read(bucketFile)
        #expect(
            try writer.write(partial, last: true, listing: listing, position: 12, bootstrapped: true, epoch: first)
                .files > 0)
        let after = String(decoding: try output.read(bucketFile) ?? [], as: UTF8.self)
        #expect(try output.read(bucketFile) != before && !after.contains("\"W0\""))

        // Revoked since the round's picture: nothing of it written.
        held.withLock { $0 = false }
        try state.apply(WorkKey(source: "rijksmuseum", id: "W1", isRecord: false), nil)
        let unwritten = try state.view(shards: shards, whole: false)
        let kept = try output.read(bucketFile)
        let revoked = try writer.write(
            unwritten, last: true, listing: listing, position: 13, bootstrapped: true, epoch: first)
        #expect(revoked.files == 0 && revoked.summary == nil)
        #expect(try summary().contains("\"position\":12") && output.read(bucketFile) == kept)

        // Before the index is complete: the summary alone, marked unpublished.
        let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("shard-writer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: fresh) }
        let empty = FolderOutputStore(directory: fresh)
        let early = ShardWriter(
            known: KnownOutput(output: empty, shards: shards, relistEvery: .zero),
            summaries: IndexSummaries(output: empty), shards: shards, lock: NSLock(), holds: { _, _ in true },
            site: nil, logger: .init(label: "test"))
        let earlyListing = try early.plan(held: [0: first], ready: [0]).listing
        var small = try Self.shard(works: 10, shards: shards)
        let summaryOnly = try early.write(
            try small.view(shards: shards, whole: true), last: true, listing: earlyListing, position: 3,
            bootstrapped: false, epoch: first)
        #expect(summaryOnly.files == 0 && summaryOnly.summary == nil, "no published summary")
        let earlySummary = String(decoding: try empty.read(summaryPath) ?? [], as: UTF8.self)
        #expect(earlySummary.contains("\"published\":false"), "\(earlySummary.prefix(200))")
        #expect(try empty.read(IndexLayout.worksPath(0)) == nil)
    }
}
