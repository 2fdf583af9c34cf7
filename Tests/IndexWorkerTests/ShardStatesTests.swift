import Foundation
import NIOPosix
import PipelineContract
import Testing

@testable import IndexWorker

@Suite("The artist shards a copy holds")
struct ShardStatesTests {
    @Test(
        "a shard let go leaves the copy's file a part at a time, the shards held untouched; taken again meanwhile, it begins empty"
    )
    func shardLetGo() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shard-states-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let states = try ShardStates(
            folder: folder, cacheBytes: 64 << 10, threadPool: .indexTests, droppedPerCall: 100)
        let whole = ArtistIndex.build(from: IndexLayoutTests.inputs(works: 750, artists: 10))
        var keys: [Int: [WorkKey]] = [:]
        for (number, work) in whole.artists.flatMap(\.works).enumerated() {
            let (shard, key) = (number % 3, WorkKey(source: "rijksmuseum", id: work.objectNumber, isRecord: false))
            try await states.apply(key, .init(artist: "Maker \(shard)", work: work), shard: shard, generation: 1)
            keys[shard, default: []].append(key)
        }
        #expect(try await states.lineCounts(of: 0..<3) == [250, 250, 250])

        // Shards 1 and 2 let go: a hundred lines a call, shard 1's first.
        try await states.keep(only: [0])
        #expect(try await states.lineCounts(of: 0..<3) == [250, 150, 250])
        try await states.keep(only: [0])
        try await states.keep(only: [0])
        #expect(try await states.lineCounts(of: 0..<3) == [250, 0, 250])
        try await states.keep(only: [0])
        #expect(try await states.lineCounts(of: 0..<3) == [250, 0, 150])

        // Shard 2 taken again under a new assignment while its lines still leave: read again
        // from its start, it holds only what comes under that assignment.
        let work = whole.artists[0].works[0]
        try await states.apply(keys[2]![0], .init(artist: "Maker 2", work: work), shard: 2, generation: 2)
        #expect(try await states.lineCounts(of: 0..<3) == [250, 0, 1])
        let view = try #require(
            try await states.take(2, generation: 2, always: true, shards: IndexShards(count: 3)))
        #expect(view.content.totals.works == 1)
        for _ in 0..<3 { try await states.keep(only: [0, 2]) }
        #expect(try await states.lineCounts(of: 0..<3) == [250, 0, 1])
        #expect(try await states.take(0, generation: 1, always: true, shards: IndexShards(count: 3)) != nil)
    }
}
