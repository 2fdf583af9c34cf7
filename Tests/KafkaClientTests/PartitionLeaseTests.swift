import Testing

@testable import KafkaClient

/// What a partition's lease lets the consumer commit.
@Suite("A partition's lease")
struct PartitionLeaseTests {
    @Test("a partition read again from before the group's committed offset commits nothing below it, then goes on")
    func nothingBelowTheCommittedOffset() {
        let lease = KafkaPartitionLease(KafkaTopicPartition(topic: "t", partition: 0), commitFloor: 5)
        for offset in 0..<4 as Range<Int64> {
            #expect(lease.beginHandling())
            lease.finishHandling(offset: offset)
            #expect(lease.takeOffsetToStore() == nil, "offset \(offset + 1) is below 5")
        }
        #expect(lease.beginHandling())
        lease.finishHandling(offset: 4)
        #expect(lease.takeOffsetToStore() == 5)
        #expect(lease.beginHandling())
        lease.finishHandling(offset: 8)
        #expect(lease.takeOffsetToStore() == 9)
        #expect(lease.takeOffsetToStore() == nil, "stored once")
        // Without a floor, whatever was finished is stored.
        let free = KafkaPartitionLease(KafkaTopicPartition(topic: "t", partition: 0))
        #expect(free.beginHandling())
        free.finishHandling(offset: 0)
        #expect(free.takeOffsetToStore() == 1)
    }
}
