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

    @Test("a partition is ready once read from where it started to where it stood; an unknown end waits")
    func progress() {
        let progress = StageProgress()
        let pages = KafkaTopicPartition(topic: "pages", partition: 2)
        let thumbs = KafkaTopicPartition(topic: "thumbs", partition: 2)
        // Committed at 40 of 50: ten to read; thumbnails read from their start, 0 of 5.
        #expect(progress.starting(pages, committed: 40, earliest: 0) == nil)
        #expect(
            progress.starting(thumbs, committed: 7, earliest: 0, at: KafkaConsumerConfiguration.beginningOffset)
                == KafkaConsumerConfiguration.beginningOffset)
        progress.assigned([(pages, endOffset: 50), (thumbs, endOffset: 5)])
        #expect(progress.remaining == 15 && progress.ready.isEmpty)
        #expect(progress.handledBefore(6, partition: 2) && !progress.handledBefore(7, partition: 2))
        progress.read("pages", partition: 2, upTo: 50)
        progress.read("thumbs", partition: 2, upTo: 5)
        #expect(progress.ready == [2])
        progress.revoked([pages, thumbs])
        #expect(progress.ready.isEmpty && progress.held.isEmpty)
        progress.assigned([(KafkaTopicPartition(topic: "pages", partition: 1), endOffset: nil)])
        progress.read("pages", partition: 1, upTo: 1_000_000)
        #expect(progress.ready.isEmpty, "an end the broker did not give is never reached")
    }

    @Test(
        "offsets finished past every partition's end, from where the consumer started, on partitions held under the assignment they were finished under"
    )
    func settled() {
        let progress = StageProgress()
        let works = (0..<3).map { KafkaTopicPartition(topic: "works", partition: Int32($0)) }
        // Partition 2 holds nothing before offset 4 any more (compacted), and nothing from it.
        _ = progress.starting(works[2], committed: nil, earliest: 4, at: KafkaConsumerConfiguration.beginningOffset)
        progress.assigned(works.map { ($0, endOffset: $0.partition == 2 ? 4 : 10) })
        #expect(!progress.hasSettled("works", [0, 0, 4]), "nothing finished yet is not known to be past 0")
        progress.settled("works", partition: 0, upTo: 12)
        progress.settled("works", partition: 1, upTo: 5)
        progress.settled("works", partition: 0, upTo: 11)
        #expect(progress.hasSettled("works", [12, 5, 4]) && progress.hasSettled("works", [3, 0, 0]))
        #expect(!progress.hasSettled("works", [12, 6, 4]) && !progress.hasSettled("works", [13, 5, 4]))
        #expect(!progress.hasSettled("works", [12, 5, 5]), "past where the empty partition started")
        #expect(!progress.hasSettled("pages", [0, 0, 0]), "another topic")
        #expect(!progress.hasSettled("works", [1, 1, 1, 1]), "a partition not held")
        progress.settled("works", partition: 3, upTo: 50)
        #expect(!progress.hasSettled("works", [1, 1, 1, 1]), "finished on a partition not held counts for nothing")
        progress.revoked([works[1]])
        progress.assigned([(works[1], endOffset: 10)])
        #expect(!progress.hasSettled("works", [12, 5, 4]), "finished under an older assignment")
        progress.settled("works", partition: 1, upTo: 5)
        #expect(progress.hasSettled("works", [12, 5, 4]))
    }
}
