import Foundation
import KafkaClient
import Testing

/// A replay's plan from a partition's facts alone: no broker.
@Suite("Offset reset plans: targets from watermarks and committed offsets")
struct OffsetResetPlanTests {
    let topicPartition = KafkaTopicPartition(topic: "pages", partition: 0)

    func plan(
        _ target: KafkaOffsetTarget, low: Int64 = 10, high: Int64 = 50, committed: Int64? = 30,
        atTime: Int64 = -1
    ) -> KafkaOffsetResetPlan {
        let partition = KafkaOffsetResetPlan.PartitionOffsets(
            topicPartition: topicPartition, low: low, high: high, committed: committed)
        return KafkaOffsetResetPlan(group: "g", target: target, partitions: [partition]) { _, _ in atTime }
    }

    @Test("earliest is the low watermark; an offset is clamped to what the partition holds")
    func earliestAndOffsets() {
        #expect(plan(.earliest).rows.map(\.target) == [10])
        #expect(plan(.offset(25)).rows.map(\.target) == [25])
        #expect(plan(.offset(3)).rows.map(\.target) == [10])
        #expect(plan(.offset(99)).rows.map(\.target) == [50])
    }

    @Test("a shift moves from the committed offset, or from the low watermark without one, and saturates")
    func shifts() {
        #expect(plan(.shift(-5)).rows.map(\.target) == [25])
        #expect(plan(.shift(-5)).messagesToReplay == 5)
        #expect(plan(.shift(5), committed: nil).rows.map(\.target) == [15])
        #expect(plan(.shift(Int64.max)).rows.map(\.target) == [50])
        #expect(plan(.shift(Int64.min)).rows.map(\.target) == [10])
        #expect(plan(.shift(Int64.min), committed: Int64.max).rows.map(\.target) == [10])
    }

    @Test("a time target takes the lookup's answer, clamped; the lookup is asked only for times")
    func times() throws {
        #expect(plan(.dateTime(Date()), atTime: 42).rows.map(\.target) == [42])
        #expect(plan(.dateTime(Date()), atTime: 500).rows.map(\.target) == [50])
        var asked = 0
        let partition = KafkaOffsetResetPlan.PartitionOffsets(
            topicPartition: topicPartition, low: 0, high: 1, committed: nil)
        _ = KafkaOffsetResetPlan(group: "g", target: .earliest, partitions: [partition]) { _, _ in
            asked += 1
            return 0
        }
        #expect(asked == 0)
    }

    @Test("the rows keep the partition's facts, and the table shows them")
    func rowsAndText() throws {
        let result = plan(.offset(20), committed: nil)
        let row = try #require(result.rows.first)
        #expect(result.rows.count == 1)
        #expect(row.topicPartition == topicPartition)
        #expect((row.low, row.high, row.committed, row.target) == (10, 50, nil, 20))
        #expect(result.messagesToReplay == -10)
        #expect(result.text.contains("pages\t0\t10\t50\t-\t20"))
    }
}
