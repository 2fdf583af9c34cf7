import ArtpipeRuntime
import ArtpipeTestKit
import Foundation
import IndexWorker
import KafkaClient
import PipelineContract
import SampleCollection
import Testing

@Suite("Lost partitions")
struct LostPartitionTests {
    @Test("a lost partition's shard is not written by its old owner over the new owner's")
    func lostNotWritten() throws {
        let (output, partition) = IndexStateRereadTests.scratch("lost")
        let oldOwner = try IndexStateRereadTests.owner(of: partition, in: output)
        let (stale, stalePage) = try IndexStateRereadTests.message(offset: 3, title: "old owner's")
        oldOwner.apply(stale, pageId: stalePage.pageId) { $0.add(stalePage) }

        // The old owner's session ended; the new owner has moved on and written its shard.
        let newOwner = try IndexStateRereadTests.owner(of: partition, in: output)
        let (newer, newerPage) = try IndexStateRereadTests.message(offset: 7, title: "new owner's")
        newOwner.apply(newer, pageId: newerPage.pageId) { $0.add(newerPage) }
        #expect(try newOwner.flush())

        oldOwner.revoke([partition], lost: true)
        #expect(try newOwner.inputsOnDisk().pages.values.first?.artworks.first?.title == "new owner's")
        #expect(try !oldOwner.flush(), "nothing of the lost partition is left to write")
    }

    @Test(
        "an old owner not yet told that its session expired writes nothing over the new owner's state, however long it goes on"
    )
    func fencedBeforeItKnows() throws {
        let (output, partition) = IndexStateRereadTests.scratch("fenced")
        let oldOwner = try IndexStateRereadTests.owner(of: partition, in: output)
        try IndexStateRereadTests.applyAndFlush(oldOwner, offset: 2, title: "old owner's, written in time")

        // Kafka hands the partition over; the new owner starts from what the old one had written.
        let newOwner = try IndexStateStore(outputDirectory: output, logger: .test)
        #expect(newOwner.startOffset(for: partition) == 3)
        let (newer, newerPage) = try IndexStateRereadTests.message(offset: 7, title: "new owner's")
        newOwner.apply(newer, pageId: newerPage.pageId) { $0.add(newerPage) }
        #expect(try newOwner.flush())

        // The old owner has not polled since: it still applies, and its writer still flushes.
        let (stale, stalePage) = try IndexStateRereadTests.message(offset: 3, title: "old owner's, too late")
        oldOwner.apply(stale, pageId: stalePage.pageId) { $0.add(stalePage) }
        #expect(try !oldOwner.flush(), "the new owner's claim fences it")
        oldOwner.apply(stale, pageId: stalePage.pageId) { $0.add(stalePage) }
        #expect(try !oldOwner.flush())
        #expect(try newOwner.inputsOnDisk().pages.values.first?.artworks.first?.title == "new owner's")
        let reader = try IndexStateStore(outputDirectory: output, logger: .test)
        #expect(reader.startOffset(for: partition) == 8, "the offset on disk is the new owner's")
    }

    @Test("a message a stuck handler applies after its partition was handed over is never written")
    func appliedAfterRevokeNotWritten() throws {
        let (output, partition) = IndexStateRereadTests.scratch("late-apply")
        let oldOwner = try IndexStateRereadTests.owner(of: partition, in: output)
        try IndexStateRereadTests.applyAndFlush(oldOwner, offset: 2, title: "old owner's")
        oldOwner.revoke([partition])
        let newOwner = try IndexStateRereadTests.owner(of: partition, in: output)
        try IndexStateRereadTests.applyAndFlush(newOwner, offset: 6, title: "new owner's")

        // The old owner's handler was stuck past the drain timeout and finishes now.
        let (late, latePage) = try IndexStateRereadTests.message(offset: 3, title: "too late")
        oldOwner.apply(late, pageId: latePage.pageId) { $0.add(latePage) }
        #expect(try !oldOwner.flush())
        #expect(try newOwner.inputsOnDisk().pages.values.first?.artworks.first?.title == "new owner's")
        #expect(try IndexStateRereadTests.owner(of: partition, in: output).startOffset(for: partition) == 7)
    }
}
