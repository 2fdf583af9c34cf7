import ArtpipeTestKit
import Foundation
import ObjectStorage
import Testing

@testable import IndexWorker

@Suite("The summaries the shared files are assembled from")
struct IndexSummariesTests {
    static func shard(_ number: Int, works: Int) -> ShardSummary {
        var index = ArtistIndex.build(from: IndexLayoutTests.inputs(works: works, artists: 3))
        index.artists = index.artists.filter { IndexShards(count: 2).shard(ofArtist: $0.name) == number }
        return ShardSummary(shard: number, index: index)
    }

    @Test("complete only with every shard and page partition; a sequence number rises only when a summary changes")
    func sequences() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("summaries"))
        let summaries = IndexSummaries(output: FolderOutputStore(directory: directory))
        #expect(try summaries.read(count: 2) == nil)
        #expect(try summaries.write(Self.shard(0, works: 30)) == 1)
        #expect(try summaries.write(Self.shard(0, works: 30)) == 1, "the same summary again is not a change")
        #expect(try summaries.write(Self.shard(0, works: 60)) == 2)
        try summaries.write(Self.shard(1, works: 30))
        try summaries.write(PagesSummary(partition: 0, entries: []))
        #expect(try summaries.read(count: 2) == nil, "page partition 1 has no summary yet")
        try summaries.write(PagesSummary(partition: 1, entries: []))
        let read = try #require(try summaries.read(count: 2))
        #expect(read.shards.map(\.shard) == [0, 1] && read.pages.map(\.partition) == [0, 1])
        #expect(read.versions.sequences[IndexSummaries.shardPath(0)] == 2)
        // The manifest's folder lists none of them: the publisher and prune never touch them.
        #expect(try IndexLayout.publishedVersions(in: FolderOutputStore(directory: directory)).isEmpty)
    }

    @Test("shared files built from older summaries never replace ones built from newer")
    func neverBack() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("assembled"))
        let summaries = IndexSummaries(output: FolderOutputStore(directory: directory))
        let older = SummaryVersions(sequences: ["a": 1, "b": 1])
        let newer = SummaryVersions(sequences: ["a": 1, "b": 2])
        #expect(older.supersedes(SummaryVersions()))
        try summaries.recordAssembled(newer)
        let published = try summaries.assembled()
        #expect(published == newer)
        // A copy that read the summaries before b changed, and assembles after: it writes nothing.
        #expect(!older.supersedes(published))
        #expect(!newer.supersedes(published), "the same summaries again: nothing to write")
        #expect(SummaryVersions(sequences: ["a": 2, "b": 2]).supersedes(published))
        #expect(!SummaryVersions(sequences: ["a": 3, "b": 1]).supersedes(published), "newer in one, older in another")
    }
}
