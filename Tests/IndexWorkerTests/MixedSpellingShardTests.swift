import ArtpipeTestKit
import Foundation
import PipelineContract
import Testing

@testable import IndexWorker

/// A shard whose artist is written in NFC on some works and NFD on others, as museums write
/// names: one artist, whose count and works agree, whether its lines are in memory or in the
/// copy's file (which keeps names by their bytes).
@Suite("Mixed spellings in one shard", .timeLimit(.minutes(2)))
struct MixedSpellingShardTests {
    @Test(
        "a maker spelt in NFC on some works and NFD on others is one artist, in NFC, with every work; in memory and in the copy's file",
        arguments: [false, true])
    func oneArtistWithEveryWork(onDisk: Bool) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("mixed-lines")).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try ShardLineFile(path: path, cacheBytes: 64 << 10)
        let works = ArtistIndex.build(from: IndexLayoutTests.inputs(works: 12, artists: 2)).artists.flatMap(\.works)
        var state = onDisk ? ShardWorks(shard: 0, lines: try file.table(of: 0)) : ShardWorks(shard: 0)
        for (number, work) in works.enumerated() {
            let artist = number % 3 == 0 ? CanonicalNamesTests.decomposed : CanonicalNamesTests.composed
            try state.apply(
                WorkKey(source: "lido", id: work.objectNumber, isRecord: false), .init(artist: artist, work: work))
        }
        let view = try state.view(shards: .one, whole: true)
        #expect(view.artists.map(\.name.utf8).map(Array.init) == [Array(CanonicalNamesTests.composed.utf8)])
        #expect(view.artists.map(\.workCount) == [works.count])
        let files = IndexLayout.files(for: view.content.index, shards: .one)
        let lines = files.filter { $0.key.hasPrefix("works/") }.values.flatMap { bytes in
            bytes.split(separator: UInt8(ascii: "\n"))
        }
        #expect(lines.count == works.count)
        // A work taken out and given again under the other spelling stays one work of one artist.
        try state.apply(WorkKey(source: "lido", id: works[0].objectNumber, isRecord: false), nil)
        try state.apply(
            WorkKey(source: "lido", id: works[0].objectNumber, isRecord: false),
            .init(artist: CanonicalNamesTests.composed, work: works[0]))
        let again = try state.view(shards: .one, whole: true)
        #expect(again.artists.map(\.workCount) == [works.count])
        #expect(again.content.works(of: 0, 0..<works.count).count == works.count)
    }
}

extension MixedSpellingShardTests {
    /// A maker written in NFD whose NFD and NFC spellings fall in different shards of `shards`.
    static func makerInTwoShards(_ shards: IndexShards) throws -> String {
        try #require(
            (0..<200).map { "Ce\u{301}zanne \($0)" }.first {
                shards.shard(ofArtist: $0) != shards.shard(ofArtist: ArtistIndex.groupName($0))
            })
    }

    @Test(
        "a work whose maker is written in NFD has its line in its NFC name's shard and a tombstone where the NFD bytes placed it"
    )
    func lineTakenOutWhereTheSpellingPlacedIt() throws {
        let shards = IndexShards(count: 3)
        let maker = try Self.makerInTwoShards(shards)
        let (nfc, nfd) = (shards.shard(ofArtist: ArtistIndex.groupName(maker)), shards.shard(ofArtist: maker))
        let artwork = Artwork(
            objectNumber: "SK-1", title: "Bathers", artist: maker, imageURL: nil, width: nil, height: nil, position: 0,
            recordId: "oai:x:1", datestamp: "2026-12-04T00:00:00Z")
        let page = Page(
            request: PageRequest(
                crawlId: "c", source: "oai-pmh", query: ["endpoint": "https://x/oai"], page: 1, pageSize: 1),
            total: 1, artworks: [artwork])
        let write = try #require(PageRows.rows(of: page, before: nil).writes.first)
        var works = WorkPartition(shards: shards)
        let writes = works.apply(write.work, key: write.key, row: write.row)
        #expect(writes.artists.map(\.shard) == [nfc])
        #expect(writes.artists.first?.row?.artist.utf8.elementsEqual(ArtistIndex.groupName(maker).utf8) == true)
        #expect(writes.relocation == WorkState.ArtistWrite(work: write.work, shard: nfd, row: nil))
        // An NFC maker, or one in the same shard either way, has none.
        var plain = WorkPartition(shards: shards)
        var composed = write
        if case .version(var version) = write.row, var listed = version.artwork {
            listed.artist = ArtistIndex.groupName(maker)
            version.artwork = listed
            composed.row = .version(version)
        }
        #expect(plain.apply(composed.work, key: composed.key, row: composed.row).relocation == nil)
    }
}

extension MixedSpellingShardTests {
    @Test(
        "in a shard, a spelling whose NFC name is another shard's is kept in NFD, one group whatever its bytes; one whose NFC name is this shard's joins it"
    )
    func spellingsByTheirShard() throws {
        let shards = IndexShards(count: 3)
        let maker = try Self.makerInTwoShards(shards)
        let works = ArtistIndex.build(from: IndexLayoutTests.inputs(works: 6, artists: 2)).artists.flatMap(\.works)
        let key = { (number: Int) in WorkKey(source: "lido", id: works[number].objectNumber, isRecord: false) }
        // Where the NFD bytes placed the lines: two spellings that are not NFC (one decomposed,
        // one with the accent composed onto nothing else) are one group, in NFD.
        var there = ShardWorks(shard: shards.shard(ofArtist: maker), layout: shards)
        try there.apply(key(0), .init(artist: maker, work: works[0]))
        try there.apply(key(1), .init(artist: maker.decomposedStringWithCanonicalMapping, work: works[1]))
        let view = try there.view(shards: shards, whole: true)
        #expect(view.artists.map(\.workCount) == [2])
        #expect(view.artists.first?.name.utf8.elementsEqual(maker.decomposedStringWithCanonicalMapping.utf8) == true)
        // In the NFC name's shard, every spelling is the NFC name.
        var home = ShardWorks(shard: shards.shard(ofArtist: ArtistIndex.groupName(maker)), layout: shards)
        try home.apply(key(2), .init(artist: maker, work: works[2]))
        try home.apply(key(3), .init(artist: ArtistIndex.groupName(maker), work: works[3]))
        let homeView = try home.view(shards: shards, whole: true)
        #expect(homeView.artists.map(\.workCount) == [2])
        #expect(homeView.artists.first?.name.utf8.elementsEqual(ArtistIndex.groupName(maker).utf8) == true)
    }
}
