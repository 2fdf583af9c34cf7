import ArtpipeTestKit
import Foundation
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
