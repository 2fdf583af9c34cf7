import Foundation
import KafkaClient
import Testing

/// Planning a replay from where partitions stand, without a broker.
@Suite("Replay plans from partition positions")
struct OffsetResetPlanTests {
    /// Partition 0 holds 100..<200 with 150 committed; partition 1 holds 0..<10, nothing committed.
    let positions = [
        KafkaOffsetResetPlan.Position(
            topicPartition: KafkaTopicPartition(topic: "t", partition: 0), low: 100, high: 200, committed: 150),
        KafkaOffsetResetPlan.Position(
            topicPartition: KafkaTopicPartition(topic: "t", partition: 1), low: 0, high: 10, committed: nil),
    ]

    func targets(_ target: KafkaOffsetTarget, offsetAt: (KafkaOffsetResetPlan.Position, Date) -> Int64 = { _, _ in 0 })
        -> [Int64]
    {
        KafkaOffsetResetPlan(group: "g", target: target, positions: positions, offsetAt: offsetAt).rows.map(\.target)
    }

    @Test("earliest is each partition's low watermark")
    func earliest() {
        #expect(targets(.earliest) == [100, 0])
    }

    @Test("an offset is clamped to what each partition holds")
    func offsetClamps() {
        #expect(targets(.offset(5)) == [100, 5])
        #expect(targets(.offset(150)) == [150, 10])
    }

    @Test("a shift moves the committed offset, or the low watermark where none is, and clamps")
    func shift() {
        #expect(targets(.shift(-20)) == [130, 0])
        #expect(targets(.shift(3)) == [153, 3])
        #expect(targets(.shift(Int64.max)) == [200, 10])
        #expect(targets(.shift(Int64.min)) == [100, 0])
    }

    @Test("a date asks the lookup once per partition, and its answer is clamped too")
    func dateTime() {
        var asked: [Int32] = []
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let result = targets(.dateTime(date)) { position, when in
            #expect(when == date)
            asked.append(position.topicPartition.partition)
            return position.topicPartition.partition == 0 ? 170 : 99
        }
        #expect(result == [170, 10])
        #expect(asked == [0, 1])
        #expect(
            targets(.earliest) { _, _ in
                Issue.record("a lookup for a target without a date")
                return 0
            } == [100, 0])
    }

    @Test("the plan keeps each partition's range and committed offset, and counts what is read again")
    func rowsAndCount() {
        let plan = KafkaOffsetResetPlan(group: "g", target: .earliest, positions: positions) { _, _ in 0 }
        #expect(plan.rows.map(\.low) == [100, 0])
        #expect(plan.rows.map(\.high) == [200, 10])
        #expect(plan.rows.map(\.committed) == [150, nil])
        // Partition 0 goes back 50; partition 1 starts where it would anyway.
        #expect(plan.messagesToReplay == 50)
    }
}
