import Foundation
import KafkaClient
import Testing

@testable import StreamTasks

@Suite("A store file's checkpoint: written whole, taken once, refused when the cluster does not bear it out")
struct StoreCheckpointTests {
    static let written = Date(timeIntervalSince1970: 1_800_000_000)

    static func checkpoint(_ partitions: [Int: StoreCheckpoint.Mark] = [0: .init(offset: 40), 1: .init(offset: 0)])
        -> StoreCheckpoint
    {
        StoreCheckpoint(
            cluster: "cluster-a", topic: "changelog", partitionCount: 2, written: written, fileBytes: 4096,
            partitions: partitions)
    }

    static func bounds(cluster: String? = "cluster-a", _ ends: [(low: Int64, high: Int64)] = [(0, 50), (0, 0)])
        -> KafkaTopicBounds
    {
        KafkaTopicBounds(clusterID: cluster, partitions: ["changelog": ends])
    }

    @Test("one the cluster bears out is kept; each way it may not be is refused, saying why")
    func refusals() {
        let now = Self.written.addingTimeInterval(600)
        let kept = Self.checkpoint()
        #expect(kept.refusal(file: 4096, bounds: Self.bounds(), partitionCount: 2, now: now) == nil)
        // Brokers that give no id are judged by the offsets alone when they gave none before; a
        // checkpoint that names a cluster is refused by brokers that name none.
        var anonymous = kept
        anonymous.cluster = nil
        #expect(anonymous.refusal(file: 4096, bounds: Self.bounds(cluster: nil), partitionCount: 2, now: now) == nil)
        #expect(
            kept.refusal(file: 4096, bounds: Self.bounds(cluster: nil), partitionCount: 2, now: now)?.contains(
                "unknown")
                == true)
        let refused: [(String, String?)] = [
            ("missing", kept.refusal(file: nil, bounds: Self.bounds(), partitionCount: 2, now: now)),
            ("cut", kept.refusal(file: 2048, bounds: Self.bounds(), partitionCount: 2, now: now)),
            (
                "cluster",
                kept.refusal(file: 4096, bounds: Self.bounds(cluster: "cluster-b"), partitionCount: 2, now: now)
            ),
            ("partitions", kept.refusal(file: 4096, bounds: Self.bounds(), partitionCount: 3, now: now)),
            ("ahead", kept.refusal(file: 4096, bounds: Self.bounds(), partitionCount: 2, now: Self.written - 3600)),
            (
                "made again",
                kept.refusal(file: 4096, bounds: Self.bounds([(0, 39), (0, 0)]), partitionCount: 2, now: now)
            ),
            (
                "deleted",
                kept.refusal(file: 4096, bounds: Self.bounds([(41, 50), (0, 0)]), partitionCount: 2, now: now)
            ),
            (
                "missing or has another",
                kept.refusal(file: 4096, bounds: Self.bounds([(0, 50)]), partitionCount: 2, now: now)
            ),
        ]
        for (word, refusal) in refused {
            #expect(refusal?.contains(word) == true, "\(word): \(refusal ?? "kept")")
        }
        var older = kept
        older.format = StoreCheckpoint.currentFormat + 1
        #expect(
            older.refusal(file: 4096, bounds: Self.bounds(), partitionCount: 2, now: now)?.contains("layout") == true)
    }

    @Test(
        "a partition whose rows stopped following the changelog too long ago is left out, dated by its mark or else by the checkpoint; so is one its reader was moved back below"
    )
    func partitionsLeftOut() {
        let later = Self.written.addingTimeInterval(StoreCheckpoint.maximumAge - 60)
        let checkpoint = Self.checkpoint([
            0: .init(offset: 40), 1: .init(offset: 7, asOf: Self.written - 3600), 2: .init(offset: 9, asOf: later),
        ])
        let (kept, stale) = checkpoint.leavingOut(
            olderThan: Self.written.addingTimeInterval(StoreCheckpoint.maximumAge))
        #expect(stale == [1] && kept.partitions.keys.sorted() == [0, 2])
        let aged = checkpoint.leavingOut(olderThan: Self.written.addingTimeInterval(StoreCheckpoint.maximumAge + 60))
        #expect(aged.stale == [0, 1] && aged.kept.partitions.keys.sorted() == [2])
        // Floors: the group's committed offsets now; none where it has none.
        let (ahead, moved) = checkpoint.leavingOut(pastFloors: [40, 3, nil])
        #expect(moved == [1, 2] && ahead.partitions.keys.sorted() == [0])
        #expect(Self.checkpoint([0: .init(offset: 0)]).leavingOut(pastFloors: [nil]).moved.isEmpty, "nothing to show")
    }

    @Test("what a mark says was published is kept by the build that wrote it only; the rest of the mark stays")
    func publishedByItsBuild() {
        var checkpoint = Self.checkpoint([
            0: .init(offset: 40, published: .init(record: 3, files: "9f")), 1: .init(offset: 7),
        ])
        checkpoint.build = "b1"
        #expect(checkpoint.keepingPublished(by: "b1").kept == checkpoint)
        #expect(checkpoint.keepingPublished(by: "b1").dropped.isEmpty)
        for (writer, reader) in [("b1", "b2"), ("b1", nil), (nil, nil), (nil, "b1")] as [(String?, String?)] {
            checkpoint.build = writer
            let (kept, dropped) = checkpoint.keepingPublished(by: reader)
            #expect(dropped == [0], "\(String(describing: writer)) read by \(String(describing: reader))")
            #expect(kept.partitions.mapValues(\.published) == [0: nil, 1: nil])
            #expect(kept.partitions.mapValues(\.offset) == [0: 40, 1: 7])
        }
    }

    @Test("written beside its file and read back the same; taken, it is gone, so a second take finds none")
    func fileRoundTrip() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("checkpoint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let location = StoreCheckpoint.location(of: folder.appendingPathComponent("works.sqlite").path)
        #expect(location.lastPathComponent == "works.sqlite.checkpoint")
        var checkpoint = Self.checkpoint([
            0: .init(offset: 40, linesSent: 12, published: .init(record: 5, files: "a1")),
            1: .init(offset: 7, slot: 3, asOf: Self.written - 60),
        ])
        checkpoint.build = "0a1b"
        try checkpoint.write(to: location)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["works.sqlite.checkpoint"])
        #expect(try StoreCheckpoint.take(at: location) == checkpoint)
        #expect(try StoreCheckpoint.take(at: location) == nil)
        // One that cannot be read is taken all the same, and said to be unreadable.
        try Data("{\"format\":".utf8).write(to: location)
        #expect(throws: (any Error).self) { try StoreCheckpoint.take(at: location) }
        #expect(!FileManager.default.fileExists(atPath: location.path))
    }
}
