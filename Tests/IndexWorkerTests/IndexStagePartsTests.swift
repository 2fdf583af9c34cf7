import KafkaClient
import PipelineContract
import Testing

@testable import IndexWorker

@Suite("The index stages' parts")
struct IndexStagePartsTests {
    static func version(_ artist: String, datestamp: String, page: String) -> WorkRow {
        var artwork = Artwork(
            objectNumber: "SK-1", title: "t", artist: artist, imageURL: nil, width: nil, height: nil, position: 0)
        (artwork.recordId, artwork.datestamp) = ("oai:1", datestamp)
        return .version(WorkVersion(pageId: page, crawlId: "c", page: 1, artwork: artwork))
    }

    @Test(
        "a work whose artist changes leaves its old shard by a tombstone and joins the new one; the same row again writes nothing"
    )
    func artistMoves() throws {
        let shards = IndexShards(count: 8)
        // Two makers in different shards.
        let names = (0..<100).map { "Maker \($0)" }
        let first = names[0]
        let other = try #require(names.first { shards.shard(ofArtist: $0) != shards.shard(ofArtist: first) })
        let work = WorkKey(source: "oai", id: "oai:1", isRecord: true)
        var partition = WorkPartition(shards: shards)
        let older = Self.version(first, datestamp: "2024-01-01", page: "p1")
        let writes = partition.apply(work, key: older.key(of: work), row: older)
        #expect(writes.artists.map(\.shard) == [shards.shard(ofArtist: first)] && writes.artists[0].row != nil)
        #expect(partition.apply(work, key: older.key(of: work), row: older) == .init(), "the same row again")
        let newer = Self.version(other, datestamp: "2025-01-01", page: "p2")
        let moved = partition.apply(work, key: newer.key(of: work), row: newer)
        #expect(moved.artists.map(\.shard) == [shards.shard(ofArtist: first), shards.shard(ofArtist: other)])
        #expect(moved.artists[0].row == nil && moved.artists[1].row?.artist == other)
        #expect(partition.works[work]?.rows.versions.count == 2, "the older version stays, shown no more")
        #expect(WorkRow.work(ofKey: older.key(of: work)) == work)
    }
}
