import Testing

@testable import KafkaClient

@Suite("Delivery continuity of a partition")
struct DeliveryContinuityTests {
    @Test("batches that follow on are delivered; the first batch of a lease starts anywhere")
    func followingBatches() {
        var continuity = KafkaDeliveryContinuity()
        #expect(continuity.admit(Array(1_673...1_700)) == .deliver)
        #expect(continuity.admit([1_701]) == .deliver)
        #expect(continuity.deliveredThrough == 1_701)
    }

    @Test("a batch past a gap is dropped and the partition fetched again from the first missing offset")
    func gapIsFetchedAgain() {
        var continuity = KafkaDeliveryContinuity()
        _ = continuity.admit(Array(0...1_672))
        #expect(continuity.admit(Array(2_625...2_700)) == .refetch(from: 1_673, missing: 1_673...2_624))
        #expect(continuity.deliveredThrough == 1_672)
        // The fetch again found them: the messages a fetch had lost, worth a warning.
        #expect(continuity.admit(Array(1_673...1_800)) == .deliverRefilled(missing: 1_673...2_624))
        #expect(continuity.deliveredThrough == 1_800)
        #expect(continuity.admit([1_801]) == .deliver)
    }

    @Test("a hole inside a batch drops the whole batch, fetched again from after the last delivered")
    func holeInsideBatch() {
        var continuity = KafkaDeliveryContinuity()
        _ = continuity.admit(Array(0...99))
        // The run on Tansu that lost 20 works: only a batch's first offset was checked.
        let holed: [Int64] = Array(100...119) + Array(140...160)
        #expect(continuity.admit(holed) == .refetch(from: 100, missing: 120...139))
        #expect(continuity.deliveredThrough == 99)
        #expect(continuity.admit(Array(100...160)) == .deliverRefilled(missing: 120...139))
        #expect(continuity.deliveredThrough == 160)
    }

    @Test("a lease's first batch may start anywhere, but its messages must follow each other")
    func holeInFirstBatch() {
        var continuity = KafkaDeliveryContinuity()
        #expect(continuity.admit([500, 501, 505]) == .refetch(from: 500, missing: 502...504))
        #expect(continuity.deliveredThrough == nil)
        // Fetched again, it must start where the fetch again did: a later start is a hole too.
        #expect(continuity.admit(Array(503...510)) == .refetch(from: 500, missing: 500...502))
        #expect(continuity.admit(Array(500...505)) == .deliverRefilled(missing: 500...502))
    }

    @Test("a gap still there after every refetch is real: delivered past, and named")
    func realGap() {
        var continuity = KafkaDeliveryContinuity()
        _ = continuity.admit(Array(0...9))
        for _ in 0..<KafkaDeliveryContinuity.refetchLimit {
            #expect(continuity.admit(Array(11...20)) == .refetch(from: 10, missing: 10...10))
        }
        #expect(continuity.admit(Array(11...20)) == .deliverPastGap(missing: 10...10))
        #expect(continuity.logHasGaps)
        #expect(continuity.admit([21]) == .deliver)
        // A compacted log: its later gaps are delivered past without fetching again.
        #expect(continuity.admit([30, 31, 35]) == .deliver)
        #expect(continuity.deliveredThrough == 35)
    }

    @Test("a hole inside a batch that every refetch shows again is the log's: delivered past, and named")
    func realHoleInsideBatch() {
        var continuity = KafkaDeliveryContinuity()
        _ = continuity.admit(Array(0...9))
        let withMarker: [Int64] = Array(10...14) + Array(16...20)
        for _ in 0..<KafkaDeliveryContinuity.refetchLimit {
            #expect(continuity.admit(withMarker) == .refetch(from: 10, missing: 15...15))
        }
        #expect(continuity.admit(withMarker) == .deliverPastGap(missing: 15...15))
        #expect(continuity.deliveredThrough == 20)
    }

    @Test("a batch fetched again that ends before the hole is delivered; the hole is still checked")
    func refetchEndingBeforeHole() {
        var continuity = KafkaDeliveryContinuity()
        _ = continuity.admit(Array(0...99))
        #expect(continuity.admit(Array(100...119) + Array(140...150)) == .refetch(from: 100, missing: 120...139))
        #expect(continuity.admit(Array(100...110)) == .deliver)
        #expect(continuity.admit(Array(111...119) + [140]) == .refetch(from: 111, missing: 120...139))
        #expect(continuity.admit(Array(111...140)) == .deliverRefilled(missing: 120...139))
    }

    @Test("a gap that a refetch fills leaves the partition checked")
    func filledGapKeepsChecking() {
        var continuity = KafkaDeliveryContinuity()
        _ = continuity.admit(Array(0...9))
        #expect(continuity.admit(Array(15...20)) == .refetch(from: 10, missing: 10...14))
        #expect(continuity.admit(Array(10...20)) == .deliverRefilled(missing: 10...14))
        #expect(!continuity.logHasGaps)
        #expect(continuity.admit([30, 31]) == .refetch(from: 21, missing: 21...29))
    }

    @Test("messages delivered again after a seek back are no hole and do not move the position backwards")
    func redeliveredMessages() {
        var continuity = KafkaDeliveryContinuity()
        _ = continuity.admit(Array(0...50))
        #expect(continuity.admit(Array(40...45)) == .deliver)
        #expect(continuity.admit([48, 49, 50, 51, 52, 45, 46, 53]) == .deliver)
        #expect(continuity.deliveredThrough == 53)
    }
}
