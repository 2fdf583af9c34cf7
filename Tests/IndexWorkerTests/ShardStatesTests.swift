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

        let kept = try Self.keptStates(in: folder, sealed: sealed)
        for shard in 0..<2 {
            #expect(try await kept.beginRestore(of: shard, under: AssignmentEpoch(1)).resumeOffset == 100)
            let view = try #require(try await kept.take(shard, epoch: AssignmentEpoch(1), always: true, shards: shards))
            #expect(view.artists.map { "\($0.name) \($0.workCount)" } == before[shard].artists)
            #expect(view.works == before[shard].works && view.thumbnails == before[shard].thumbnails)
        }
        #expect(try await kept.beginRestore(of: 2, under: AssignmentEpoch(1)).resumeOffset == 0)
        #expect(try await kept.lineCounts(of: 2..<3) == [0], "not named: begun empty")
    }

    @Test(
        "a checkpoint names what the output holds of a shard only while its lines are as published; kept so, the shard renders only what changes after, and a vouch the publisher did not take up is gone"
    )
    func publishedAndVouched() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shard-vouch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let shards = IndexShards(count: 4)
        let (one, two, three) = (AssignmentEpoch(1), AssignmentEpoch(2), AssignmentEpoch(3))
        let publication = { (record: Int) in StoreCheckpoint.Publication(record: record, files: "files \(record)") }
        let works = ArtistIndex.build(from: IndexLayoutTests.inputs(works: 300, artists: 12)).artists.flatMap(\.works)
        let key = { (work: ArtistIndex.Work) in WorkKey(source: "rijksmuseum", id: work.objectNumber, isRecord: false) }
        let row = { (number: Int, work: ArtistIndex.Work) in ShardWorks.Row(artist: "Maker \(number % 40)", work: work)
        }
        let states = try ShardStates(folder: folder, cacheBytes: 64 << 10, threadPool: .indexTests)
        for shard in 0..<4 { _ = try await states.beginRestore(of: shard, under: one) }
        for (number, work) in works.enumerated() {
            try await states.apply(
                key(work), row(number, work), shard: number % 4, epoch: one, offset: Int64(number / 4))
        }
        for shard in 0..<4 { _ = try await states.take(shard, epoch: one, always: true, shards: shards) }
        // Shard 0: recorded, its summary rewritten, then a publication under another assignment.
        await states.published(0, epoch: one, publication(5))
        await states.published(0, epoch: one, publication(8), rewritten: true)
        await states.published(0, epoch: two, publication(99))
        // Shard 1: recorded, then its write failed.
        await states.published(1, epoch: one, publication(6))
        await states.republish(1)
        // Shard 2: a rewrite with nothing recorded.
        await states.published(2, epoch: one, publication(4), rewritten: true)
        // Shard 3: recorded, then changed, then recorded again without a take.
        await states.published(3, epoch: one, publication(7))
        var changed = works[3]
        changed.title = "Changed"
        try await states.apply(key(changed), row(3, changed), shard: 3, epoch: one, offset: 100)
        await states.published(3, epoch: one, publication(9))
        // Shard 0 let go, as a stopping copy lets go of every shard: its lines and mark stay.
        try await states.keep(StageAssignments(held: [1: one, 2: one, 3: one], latest: one))
        let sealed = try await states.seal()
        #expect(
            sealed.partitions.mapValues(\.published) == [0: publication(8), 1: nil, 2: nil, 3: nil],
            "another assignment's refused; a rewrite follows a record; a failed write or a change takes it away")

        // Kept: shard 0 as published, shard 1 restored whole; the publisher finds shard 0 as said.
        let kept = try Self.keptStates(in: folder, sealed: sealed)
        for shard in 0..<2 { _ = try await kept.beginRestore(of: shard, under: two) }
        #expect(try await kept.take(0, epoch: two, always: false, shards: shards) == nil, "as published: nothing")
        let restoredWhole = try await kept.take(1, epoch: two, always: false, shards: shards)
        #expect(restoredWhole != nil && restoredWhole?.buckets == nil, "not vouched for: whole")
        #expect(try await kept.takeVouched(held: [1: two]).isEmpty, "a picture from before its assignment: left")
        #expect(try await kept.takeVouched(held: [0: one, 1: two]).isEmpty, "nor under an older assignment")
        #expect(try await kept.takeVouched(held: [0: two, 1: two]) == [0: publication(8)])
        #expect(try await kept.takeVouched(held: [0: two, 1: two]).isEmpty, "looked at once")
        await kept.published(0, epoch: two, publication(8))
        let resealed = try await kept.seal()
        #expect(
            resealed.partitions.mapValues(\.published) == [0: publication(8), 1: nil, 2: nil, 3: nil],
            "1 taken whole, unconfirmed; 2 and 3 not assigned, as their checkpoint had them")

        // Kept again: a vouch the publisher looked at but did not take up is gone from the next
        // checkpoint.
        let next = folder.appendingPathComponent("next")
        let again = try Self.keptStates(in: next, sealed: resealed, as: "again")
        _ = try await again.beginRestore(of: 0, under: three)
        #expect(try await again.takeVouched(held: [0: three]) == [0: publication(8)])
        let looked = try await again.seal().partitions
        #expect(looked[0] != nil && looked[0]?.published == nil)

        // Kept and taken up: a row changes one artist; the view holds its bucket alone, and the
        // take, not yet written, leaves the next checkpoint nothing to vouch for.
        let third = try Self.keptStates(in: next, sealed: resealed, as: "third")
        _ = try await third.beginRestore(of: 0, under: three)
        _ = try await third.takeVouched(held: [0: three])
        await third.published(0, epoch: three, publication(8))
        var retitled = works[0]
        retitled.title = "Retitled"
        try await third.apply(key(retitled), row(0, retitled), shard: 0, epoch: three, offset: 100)
        let view = try #require(try await third.take(0, epoch: three, always: false, shards: shards))
        #expect(view.buckets?.count == 1, "only the changed artist's bucket: \(String(describing: view.buckets))")
        #expect(view.works.keys.sorted() == ["Maker 0"])
        #expect(view.artists.count == 10 && view.artists.map(\.workCount).reduce(0, +) == 75, "every artist counted")
        let taken = try await third.seal().partitions
        #expect(taken[0] != nil && taken[0]?.published == nil)
    }

    /// The file sealed in `folder` as the next process finds it (this one's connection holds its
    /// lock: a copy in `folder/<name>`), opened with its checkpoint.
    private static func keptStates(
        in folder: URL, sealed: (partitions: [Int: StoreCheckpoint.Mark], fileBytes: Int64), as name: String = "next"
    ) throws -> ShardStates {
        let next = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: next, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent(StateFile.lines.name),
            to: next.appendingPathComponent(StateFile.lines.name))
        return try ShardStates(
            folder: next, cacheBytes: 64 << 10, threadPool: .indexTests, layout: nil,
            kept: StoreCheckpoint(
                cluster: nil, topic: ArtpipeTopic.indexArtists, partitionCount: 3, written: Date(),
                fileBytes: sealed.fileBytes, partitions: sealed.partitions))
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
