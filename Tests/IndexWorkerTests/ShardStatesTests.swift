import Foundation
import KafkaClient
import NIOPosix
import PipelineContract
import StreamTasks
import Testing

@testable import IndexWorker

@Suite("The artist shards a copy holds")
struct ShardStatesTests {
    /// Shard states in a folder of their own, for the caller to remove.
    static func states(droppedPerCall: Int = 10_000) throws -> (ShardStates, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shard-states-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let states = try ShardStates(
            folder: folder, cacheBytes: 64 << 10, threadPool: .indexTests, droppedPerCall: droppedPerCall,
            dropsAfter: .zero)
        return (states, folder)
    }

    @Test(
        "a shard let go leaves the copy's file a part at a time, the shards held untouched; taken again meanwhile, it begins empty"
    )
    func shardLetGo() async throws {
        let (states, folder) = try Self.states(droppedPerCall: 100)
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = ArtistIndex.build(from: IndexLayoutTests.inputs(works: 750, artists: 10))
        var keys: [Int: [WorkKey]] = [:]
        for (number, work) in whole.artists.flatMap(\.works).enumerated() {
            let (shard, key) = (number % 3, WorkKey(source: "rijksmuseum", id: work.objectNumber, isRecord: false))
            try await states.apply(
                key, .init(artist: "Maker \(shard)", work: work), shard: shard, epoch: AssignmentEpoch(1))
            keys[shard, default: []].append(key)
        }
        #expect(try await states.lineCounts(of: 0..<3) == [250, 250, 250])

        // Shards 1 and 2 let go: a hundred lines a call, shard 1's first.
        try await states.keep(StageAssignments(held: [0: AssignmentEpoch(1)], latest: AssignmentEpoch(1)))
        #expect(try await states.lineCounts(of: 0..<3) == [250, 150, 250])
        try await states.keep(StageAssignments(held: [0: AssignmentEpoch(1)], latest: AssignmentEpoch(1)))
        try await states.keep(StageAssignments(held: [0: AssignmentEpoch(1)], latest: AssignmentEpoch(1)))
        #expect(try await states.lineCounts(of: 0..<3) == [250, 0, 250])
        try await states.keep(StageAssignments(held: [0: AssignmentEpoch(1)], latest: AssignmentEpoch(1)))
        #expect(try await states.lineCounts(of: 0..<3) == [250, 0, 150])

        // Shard 2 taken again under a new assignment while its lines still leave: read again
        // from its start, it holds only what comes under that assignment.
        let work = whole.artists[0].works[0]
        try await states.apply(keys[2]![0], .init(artist: "Maker 2", work: work), shard: 2, epoch: AssignmentEpoch(2))
        #expect(try await states.lineCounts(of: 0..<3) == [250, 0, 1])
        let view = try #require(
            try await states.take(2, epoch: AssignmentEpoch(2), always: true, shards: IndexShards(count: 3)))
        #expect(view.content.totals.works == 1)
        for _ in 0..<3 {
            try await states.keep(
                StageAssignments(held: [0: AssignmentEpoch(1), 2: AssignmentEpoch(2)], latest: AssignmentEpoch(2)))
        }
        #expect(try await states.lineCounts(of: 0..<3) == [250, 0, 1])
        #expect(try await states.take(0, epoch: AssignmentEpoch(1), always: true, shards: IndexShards(count: 3)) != nil)
    }

    @Test(
        "a round's picture of the assignments, taken before a shard was assigned, does not let that shard go"
    )
    func shardAssignedAfterThePicture() async throws {
        let (states, folder) = try Self.states()
        defer { try? FileManager.default.removeItem(at: folder) }
        let progress = StageProgress()
        let topic = ArtpipeTopic.indexArtists
        progress.assigned([(KafkaTopicPartition(topic: topic, partition: 0), endOffset: 0)])
        // The round's picture: shard 0 alone.
        let picture = progress.assignments
        // Shard 2 assigned while the round awaits the broker, and restored.
        progress.assigned([(KafkaTopicPartition(topic: topic, partition: 2), endOffset: 40)])
        let epoch = try #require(progress.held[2])
        let whole = ArtistIndex.build(from: IndexLayoutTests.inputs(works: 40, artists: 4))
        for work in whole.artists.flatMap(\.works) {
            let key = WorkKey(source: "rijksmuseum", id: work.objectNumber, isRecord: false)
            try await states.apply(key, .init(artist: "Maker", work: work), shard: 2, epoch: epoch)
        }
        try await states.keep(picture)
        #expect(try await states.lineCounts(of: 2..<3) == [40])
        // Asked for under an older assignment, it gives nothing rather than an empty shard; a
        // late row of that assignment changes nothing.
        let older = try await states.take(
            2, epoch: AssignmentEpoch(epoch.value - 1), always: true, shards: IndexShards(count: 3))
        #expect(older == nil)
        let late = whole.artists[0].works[0]
        try await states.apply(
            WorkKey(source: "rijksmuseum", id: "late", isRecord: false), .init(artist: "Maker", work: late), shard: 2,
            epoch: AssignmentEpoch(epoch.value - 1))
        let view = try #require(
            try await states.take(2, epoch: epoch, always: true, shards: IndexShards(count: 3)))
        #expect(view.content.totals.works == 40)

        // Once a picture shows shard 2 gone, it leaves.
        progress.revoked([KafkaTopicPartition(topic: topic, partition: 2)])
        try await states.keep(progress.assignments)
        #expect(try await states.lineCounts(of: 2..<3) == [0])
    }
}
