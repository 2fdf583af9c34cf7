import Testing

@testable import KafkaClient

@Suite("Delivery continuity of a partition")
struct DeliveryContinuityTests {
    @Test("batches that follow on are delivered; the first batch of a lease starts anywhere")
    func followingBatches() {
        var continuity = KafkaDeliveryContinuity()
        #expect(continuity.admit(Array(1_673...1_700)) == .deliver)
        #expect(continuity.admit(Array(1_701...1_701)) == .deliver)
        #expect(continuity.deliveredThrough == 1_701)
    }

    @Test("a batch past a gap is dropped and the partition fetched again from the first missing offset")
    func gapIsFetchedAgain() {
        var continuity = KafkaDeliveryContinuity()
        _ = continuity.admit(Array(0...1_672))
        #expect(continuity.admit(Array(2_625...2_700)) == .refetch(from: 1_673, delivering: 0))
        #expect(continuity.deliveredThrough == 1_672)
        #expect(continuity.admit(Array(1_673...1_800)) == .deliver)
        #expect(continuity.deliveredThrough == 1_800)
    }

    @Test("a gap still there after every refetch is real: delivered past, and named")
    func realGap() {
        var continuity = KafkaDeliveryContinuity()
        _ = continuity.admit(Array(0...9))
        for _ in 0..<KafkaDeliveryContinuity.refetchLimit {
            #expect(continuity.admit(Array(11...20)) == .refetch(from: 10, delivering: 0))
        }
        #expect(continuity.admit(Array(11...20)) == .deliverPastGap(missing: 10...10))
        #expect(continuity.logHasGaps)
        #expect(continuity.admit(Array(21...21)) == .deliver)
        // A compacted log: its later gaps are delivered past without fetching again.
        #expect(continuity.admit(Array(30...31)) == .deliver)
        #expect(continuity.deliveredThrough == 31)
    }

    @Test("a gap that a refetch fills leaves the partition checked")
    func filledGapKeepsChecking() {
        var continuity = KafkaDeliveryContinuity()
        _ = continuity.admit(Array(0...9))
        #expect(continuity.admit(Array(15...20)) == .refetch(from: 10, delivering: 0))
        #expect(continuity.admit(Array(10...20)) == .deliver)
        #expect(!continuity.logHasGaps)
        #expect(continuity.admit(Array(30...31)) == .refetch(from: 21, delivering: 0))
    }

    @Test("a gap inside a batch: the messages before it are delivered, the rest fetched again")
    func gapInsideBatch() {
        var continuity = KafkaDeliveryContinuity()
        _ = continuity.admit(Array(0...9))
        #expect(continuity.admit(Array(10...14) + Array(35...40)) == .refetch(from: 15, delivering: 5))
        #expect(continuity.deliveredThrough == 14)
        #expect(continuity.admit(Array(15...40)) == .deliver)
        #expect(continuity.deliveredThrough == 40)
        #expect(!continuity.logHasGaps)
        // The first batch of a lease is checked inside too.
        var fresh = KafkaDeliveryContinuity()
        #expect(fresh.admit([500, 501, 503]) == .refetch(from: 502, delivering: 2))
        // Still missing after every try: delivered past, and named.
        for _ in 1..<KafkaDeliveryContinuity.refetchLimit {
            #expect(fresh.admit([503, 504]) == .refetch(from: 502, delivering: 0))
        }
        #expect(fresh.admit([503, 504]) == .deliverPastGap(missing: 502...502))
        #expect(fresh.deliveredThrough == 504)
    }

    @Test("messages delivered again after a seek back do not move the position backwards")
    func redeliveredMessages() {
        var continuity = KafkaDeliveryContinuity()
        _ = continuity.admit(Array(0...50))
        #expect(continuity.admit(Array(40...45)) == .deliver)
        #expect(continuity.deliveredThrough == 50)
    }
}
