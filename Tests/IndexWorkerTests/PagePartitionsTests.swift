import ArtpipeTestKit
import Foundation
import KafkaClient
import KafkaTestKit
import PipelineContract
import StreamTasks
import Testing

@testable import IndexWorker

/// When the pages stage takes a partition's summary: only while every row of the assignment it
/// is held under is acknowledged, whatever an earlier assignment left in flight.
@Suite("The pages stage's summaries across assignments", .serialized, .timeLimit(.minutes(1)))
struct PagePartitionsTests {
    static func message(offset: Int64, topic: String = ArtpipeTopic.pages) -> KafkaConsumerMessage {
        KafkaConsumerMessage(topic: topic, partition: 0, offset: offset, key: nil, value: [], headers: [])
    }

    /// A broker with an empty changelog of one partition, and the pages stage's partitions on it.
    static func partitions() throws -> (TestCluster, PagePartitions, StageProgress) {
        let cluster = try TestCluster()
        try cluster.broker.createTopic(ArtpipeTopic.indexPages, partitions: 1)
        let states = PagePartitions(threadPool: .indexTests, logger: .test)
        let progress = StageProgress(
            restore: .init(
                .own(ArtpipeTopic.indexPages), store: states,
                restorer: ChangelogRestorer(kafka: KafkaClientConfiguration(brokers: cluster.brokers), logger: .test)))
        return (cluster, states, progress)
    }

    /// ``partitions()`` with the entries in a file at `path`, kept from `kept` when given.
    static func partitions(file path: String, kept: StoreCheckpoint? = nil) throws -> (
        TestCluster, PagePartitions, StageProgress
    ) {
        let cluster = try TestCluster()
        try cluster.broker.createTopic(ArtpipeTopic.indexPages, partitions: 1)
        let states = PagePartitions(
            file: try PageEntryFile(path: path, cacheBytes: 1 << 20, kept: kept), threadPool: .indexTests,
            logger: .test)
        let progress = StageProgress(
            restore: .init(
                .own(ArtpipeTopic.indexPages), store: states,
                restorer: ChangelogRestorer(kafka: KafkaClientConfiguration(brokers: cluster.brokers), logger: .test)))
        return (cluster, states, progress)
    }

    @Test(
        "sealed at a clean stop, a partition is named only when every change of its assignment was acknowledged; kept, it shows the same pages"
    )
    func sealAndKeep() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pages-seal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (sealed, summary) = try await Self.sealed(
            at: folder.appendingPathComponent("a.sqlite").path, failing: false)
        let mark = try #require(sealed.partitions[0])
        #expect(mark.offset == 7 && mark.slot != nil)
        let unsent = try await Self.sealed(at: folder.appendingPathComponent("b.sqlite").path, failing: true)
        #expect(unsent.sealed.partitions.isEmpty, "a change could not be sent: the entries may be ahead")

        let (cluster, states, progress) = try Self.partitions(
            file: folder.appendingPathComponent("a.sqlite").path,
            kept: StoreCheckpoint(
                cluster: nil, topic: ArtpipeTopic.indexPages, partitionCount: 1, written: Date(),
                fileBytes: sealed.fileBytes, partitions: sealed.partitions))
        _ = try await Self.assign(progress)
        let before = try #require(summary)
        #expect(await states.summaries(of: [0]) == [before], "the kept pages' outlines, read again")
        await cluster.shutdown()
    }

    @Test("a new table never takes the slot of a kept one, even an empty one")
    func keptSlotsStayTaken() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("slots-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sealed: (partitions: [Int: StoreCheckpoint.Mark], fileBytes: Int64)
        do {
            let file = try PageEntryFile(path: path, cacheBytes: 1 << 20)
            let (full, empty) = (try file.table(of: 0), try file.table(of: 1))
            try full.set(PageEntry(waitingFor: "page-a"))
            sealed = try file.seal(with: [
                0: .init(offset: 1, slot: full.slot), 1: .init(offset: 0, slot: empty.slot),
            ])
        }
        // Partition 0 not kept (say, a change of it was unsent): its new table is begun afresh.
        let kept = try PageEntryFile(
            path: path, cacheBytes: 1 << 20,
            kept: StoreCheckpoint(
                cluster: nil, topic: ArtpipeTopic.indexPages, partitionCount: 2, written: Date(),
                fileBytes: sealed.fileBytes, partitions: [1: sealed.partitions[1]!]))
        let fresh = try kept.table(of: 0)
        try fresh.set(PageEntry(waitingFor: "page-b"))
        let (table, _) = try #require(try kept.keptTable(of: 1))
        #expect(fresh.slot != table.slot)
        #expect(try kept.outlines(of: table).isEmpty, "the kept empty table holds nothing of another partition")
        #expect(try kept.outlines(of: fresh).map(\.pageId) == ["page-b"])
    }

    /// Two pages applied to partition 0 and sent, the second's send failing when `failing`;
    /// sealed with 7 acknowledged in the changelog. Returns it, and the summary before.
    private static func sealed(at path: String, failing: Bool) async throws -> (
        sealed: (partitions: [Int: StoreCheckpoint.Mark], fileBytes: Int64), summary: PagesSummary?
    ) {
        let (cluster, states, progress) = try Self.partitions(file: path)
        let epoch = try await Self.assign(progress)
        for (offset, number) in [(0, 1), (1, 2)] {
            let change = PagePartitions.Change(Self.message(offset: Int64(offset)))
            _ = try await states.apply(change, to: 0, epoch: epoch, .page(ArtistIndexTests.page(number, [])))
            await states.sent(change, succeeded: !(failing && number == 2))
        }
        let summary = await states.summaries(of: [0]).first
        let sealed = try #require(try await states.seal(acknowledged: [7]))
        await cluster.shutdown()
        return (sealed, summary)
    }

    /// Partition 0 assigned anew and restored: the assignment's epoch.
    static func assign(_ progress: StageProgress) async throws -> AssignmentEpoch {
        progress.assigned([(KafkaTopicPartition(topic: ArtpipeTopic.pages, partition: 0), endOffset: 0)])
        return try #require(try await progress.restored(0))
    }

    @Test(
        "a send that failed just before a revoke, or settles late, holds back no summary once the partition is assigned again"
    )
    func failedSendBeforeRevoke() async throws {
        let (cluster, states, progress) = try Self.partitions()
        let page = ArtistIndexTests.page(1, [])
        let (first, second, third) = (
            PagePartitions.Change(Self.message(offset: 0)), PagePartitions.Change(Self.message(offset: 1)),
            PagePartitions.Change(Self.message(offset: 2))
        )

        // Assignment 1: a change whose send fails (the lease ended): no summary. Another is
        // still in flight when the partition is revoked.
        let one = try await Self.assign(progress)
        _ = try await states.apply(first, to: 0, epoch: one, .page(page))
        #expect(await states.summaries(of: [0]).isEmpty, "its row is not acknowledged")
        await states.sent(first, succeeded: false)
        #expect(await states.summaries(of: [0]).isEmpty, "its send failed")
        _ = try await states.apply(third, to: 0, epoch: one, .page(page))

        // Assignment 2, restored from the (empty) changelog: nothing of it is in flight.
        let two = try await Self.assign(progress)
        #expect(await states.summaries(of: [0]).count == 1, "the failed send was the earlier owner's")

        // A change of assignment 2 in flight; assignment 1's last one settles late, failed: it
        // counts for nothing here. Then assignment 2's is acknowledged.
        _ = try await states.apply(second, to: 0, epoch: two, .page(page))
        await states.sent(third, succeeded: false)
        // Busy: the summary taken when it was last idle, without the page in flight.
        #expect(await states.summaries(of: [0]).first?.crawls.isEmpty == true, "assignment 2's row is in flight")
        await states.sent(second, succeeded: true)
        let summaries = await states.summaries(of: [0])
        #expect(summaries.count == 1 && summaries.first?.crawls.first?.pagesIndexed == [1], "\(summaries)")
        await cluster.shutdown()
    }

    @Test(
        "a change from another input of the partition waits until the changes in flight are acknowledged: the changelog gets a page's entries in the order they were made"
    )
    func inputsTakeTurns() async throws {
        let (cluster, states, progress) = try Self.partitions()
        let page = ArtistIndexTests.page(3, [])
        let thumbnails = ArtistIndexTests.thumbnails(for: page)
        let (fetched, again, made) = (
            PagePartitions.Change(Self.message(offset: 0)), PagePartitions.Change(Self.message(offset: 1)),
            PagePartitions.Change(Self.message(offset: 0, topic: ArtpipeTopic.thumbnails))
        )
        // The page is applied; its run is not sent yet, and takes another page of its own topic.
        let epoch = try await Self.assign(progress)
        _ = try await states.apply(fetched, to: 0, epoch: epoch, .page(page))
        _ = try await states.apply(again, to: 0, epoch: epoch, .page(page))
        let thumbnailsApplied = Task {
            try await states.apply(made, to: 0, epoch: epoch, .thumbnails(thumbnails))
        }
        try await waitUntil("the thumbnails to wait for the page's run", timeout: .seconds(10)) {
            await states.waitingChanges(of: 0) == 1
        }
        await states.sent(fetched, succeeded: true)
        #expect(await states.waitingChanges(of: 0) == 1, "a change of the page's run is still in flight")
        await states.sent(again, succeeded: true)
        // Applied after the page: its entry is the page's with thumbnails, what a restore keeps.
        let writes = try await thumbnailsApplied.value
        #expect(writes.entry?.fetched == true && writes.entry?.thumbnails == thumbnails)
        await states.sent(made, succeeded: true)
        await cluster.shutdown()
    }

    @Test(
        "a page's change names what the change before took back until that one is acknowledged; after a failed send, for the rest of the assignment"
    )
    func takenBackUntilAcknowledged() async throws {
        let (cluster, states, progress) = try Self.partitions()
        let works = { (objects: [String]) in
            objects.map {
                Artwork(objectNumber: $0, title: "t", artist: "M", imageURL: nil, width: nil, height: nil, position: 0)
            }
        }
        let changes = (0..<5).map { PagePartitions.Change(Self.message(offset: Int64($0))) }
        let epoch = try await Self.assign(progress)
        let apply = { (index: Int, objects: [String]) in
            try await states.apply(changes[index], to: 0, epoch: epoch, .page(ArtistIndexTests.page(1, works(objects))))
        }
        _ = try await apply(0, ["A", "B", "C"])
        await states.sent(changes[0], succeeded: true)
        // B dropped; C dropped while that is in flight: the second names B too.
        let dropB = try await apply(1, ["A", "C"])
        #expect(dropB.entry?.retracted?.count == 1)
        let dropC = try await apply(2, ["A"])
        #expect(dropC.works.filter { $0.row == nil }.count == 2 && dropC.entry?.retracted?.count == 2)
        await states.sent(changes[1], succeeded: true)
        await states.sent(changes[2], succeeded: true)
        // Both acknowledged: the next names its own alone.
        let dropA = try await apply(3, [])
        #expect(dropA.entry?.retracted?.count == 1, "\(dropA.entry?.retracted ?? [])")
        // Its send fails: the page's later changes name it still.
        await states.sent(changes[3], succeeded: false)
        let again = try await apply(4, [])
        #expect(again.entry?.retracted == dropA.entry?.retracted)
        await states.sent(changes[4], succeeded: true)
        await cluster.shutdown()
    }
}
