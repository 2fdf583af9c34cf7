import Testing

@testable import KafkaClient

@Suite("Delivery continuity of a partition")
struct DeliveryContinuityTests {
    @Test("batches that follow on are delivered; the first batch of a lease starts anywhere")
    func followingBatches() {
        var continuity = KafkaDeliveryContinuity()
        #expect(continuity.admit(first: 1_673, last: 1_700) == .deliver)
        #expect(continuity.admit(first: 1_701, last: 1_701) == .deliver)
        #expect(continuity.deliveredThrough == 1_701)
    }

    @Test("a batch past a gap is dropped and the partition fetched again from the first missing offset")
    func gapIsFetchedAgain() {
        var continuity = KafkaDeliveryContinuity()
        _ = continuity.admit(first: 0, last: 1_672)
        #expect(continuity.admit(first: 2_625, last: 2_700) == .refetch(from: 1_673))
        #expect(continuity.deliveredThrough == 1_672)
        #expect(continuity.admit(first: 1_673, last: 1_800) == .deliver)
        #expect(continuity.deliveredThrough == 1_800)
    }

    @Test("a gap still there after every refetch is real: delivered past, and named")
    func realGap() {
        var continuity = KafkaDeliveryContinuity()
        _ = continuity.admit(first: 0, last: 9)
        for _ in 0..<KafkaDeliveryContinuity.refetchLimit {
            #expect(continuity.admit(first: 11, last: 20) == .refetch(from: 10))
        }
        #expect(continuity.admit(first: 11, last: 20) == .deliverPastGap(missing: 10...10))
        #expect(continuity.logHasGaps)
        #expect(continuity.admit(first: 21, last: 21) == .deliver)
        // A compacted log: its later gaps are delivered past without fetching again.
        #expect(continuity.admit(first: 30, last: 31) == .deliver)
        #expect(continuity.deliveredThrough == 31)
    }

    @Test("a gap that a refetch fills leaves the partition checked")
    func filledGapKeepsChecking() {
        var continuity = KafkaDeliveryContinuity()
        _ = continuity.admit(first: 0, last: 9)
        #expect(continuity.admit(first: 15, last: 20) == .refetch(from: 10))
        #expect(continuity.admit(first: 10, last: 20) == .deliver)
        #expect(!continuity.logHasGaps)
        #expect(continuity.admit(first: 30, last: 31) == .refetch(from: 21))
    }

    @Test("messages delivered again after a seek back do not move the position backwards")
    func redeliveredMessages() {
        var continuity = KafkaDeliveryContinuity()
        _ = continuity.admit(first: 0, last: 50)
        #expect(continuity.admit(first: 40, last: 45) == .deliver)
        #expect(continuity.deliveredThrough == 50)
    }
}
