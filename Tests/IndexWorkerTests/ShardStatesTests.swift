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

    @Test(
        "sealed at a clean stop, shards held and shards let go a minute ago are named at the offset they show; kept, a shard shows what it showed, and a view of it is the same"
    )
    func sealAndKeep() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shard-seal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let shards = IndexShards(count: 3)
        let whole = ArtistIndex.build(from: IndexLayoutTests.inputs(works: 300, artists: 12))
        let (sealed, before) = try await Self.sealedStates(in: folder, works: whole.artists.flatMap(\.works))
        #expect(sealed.partitions.mapValues(\.offset) == [0: 100, 1: 100], "\(sealed.partitions)")

        // The sealed file as the next process finds it (this one's connection holds its lock).
        let next = folder.appendingPathComponent("next")
        try FileManager.default.createDirectory(at: next, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent(StateFile.lines.name),
            to: next.appendingPathComponent(StateFile.lines.name))
        let kept = try ShardStates(
            folder: next, cacheBytes: 64 << 10, threadPool: .indexTests, layout: nil,
            kept: StoreCheckpoint(
                cluster: nil, topic: ArtpipeTopic.indexArtists, partitionCount: 3, written: Date(),
                fileBytes: sealed.fileBytes, partitions: sealed.partitions))
        for shard in 0..<2 {
            #expect(try await kept.beginRestore(of: shard, under: AssignmentEpoch(1)).resumeOffset == 100)
            let view = try #require(try await kept.take(shard, epoch: AssignmentEpoch(1), always: true, shards: shards))
            #expect(view.artists.map { "\($0.name) \($0.workCount)" } == before[shard].artists)
            #expect(view.works == before[shard].works && view.thumbnails == before[shard].thumbnails)
        }
        #expect(try await kept.beginRestore(of: 2, under: AssignmentEpoch(1)).resumeOffset == 0)
        #expect(try await kept.lineCounts(of: 2..<3) == [0], "not named: begun empty")
    }

    /// Shards 0 to 2 restored and given 100 rows each at offsets 0 to 99; shard 1 then let go,
    /// shard 2 given a row under an assignment begun without a restore; sealed.
    private static func sealedStates(in folder: URL, works: [ArtistIndex.Work]) async throws -> (
        sealed: (partitions: [Int: StoreCheckpoint.Mark], fileBytes: Int64),
        views: [(artists: [String], works: [String: [ArtistIndex.Work]], thumbnails: [String: Int])]
    ) {
        let states = try ShardStates(folder: folder, cacheBytes: 64 << 10, threadPool: .indexTests)
        for shard in 0..<2 { _ = try await states.beginRestore(of: shard, under: AssignmentEpoch(1)) }
        for (number, work) in works.enumerated() {
            let shard = number % 3
            let key = WorkKey(source: "rijksmuseum", id: work.objectNumber, isRecord: false)
            try await states.apply(
                key, .init(artist: "Maker \(number % 7)", work: work), shard: shard, epoch: AssignmentEpoch(1),
                offset: Int64(number / 3))
        }
        var views: [(artists: [String], works: [String: [ArtistIndex.Work]], thumbnails: [String: Int])] = []
        for shard in 0..<2 {
            let view = try #require(
                try await states.take(shard, epoch: AssignmentEpoch(1), always: true, shards: IndexShards(count: 3)))
            views.append((view.artists.map { "\($0.name) \($0.workCount)" }, view.works, view.thumbnails))
        }
        // Shard 1 let go: its lines stay a minute, whole, and are named.
        try await states.keep(StageAssignments(held: [0: AssignmentEpoch(1)], latest: AssignmentEpoch(1)))
        #expect(try await states.lineCounts(of: 0..<3) == [100, 100, 100])
        return (try await states.seal(), views)
    }
}
