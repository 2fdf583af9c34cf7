import ArtpipeRuntime
import ArtpipeTestKit
import Foundation
import KafkaClient
import KafkaTestKit
import Testing

/// Backpressure pauses and resumes partitions all the time when buffers are tiny: no message
/// may be skipped (librdkafka < 2.1 could, #4208), and a partition paused when it was taken
/// away must run again when it comes back.
@Suite("Pausing and resuming partitions", .serialized, .timeLimit(.minutes(4)))
struct PauseResumeTests {
    static func tinyBuffers(_ configuration: inout KafkaConsumerConfiguration) {
        configuration.maxBufferedPerPartition = 4
        configuration.maxBufferedBytesPerPartition = 1 << 10
    }

    /// The offsets not handled, per partition, of `count` messages spread over the topic.
    static func missing(_ handled: [ProbeHandler.Handled], topic: String, counts: [Int32: Int64]) -> [String] {
        var missing: [String] = []
        for (partition, count) in counts.sorted(by: { $0.key < $1.key }) {
            let seen = Set(handled.filter { $0.topic == topic && $0.partition == partition }.map(\.offset))
            let absent = (0..<count).filter { !seen.contains($0) }
            if !absent.isEmpty { missing.append("\(partition): \(absent.count) missing, first \(absent.prefix(5))") }
        }
        return missing
    }

    /// Produces `count` numbered messages round-robin over the partitions; returns how many each holds.
    static func produce(_ cluster: TestCluster, topic: String, partitions: Int32, count: Int) async throws
        -> [Int32: Int64]
    {
        for chunk in stride(from: 0, to: count, by: 500) {
            try await cluster.producer.send(
                (chunk..<min(chunk + 500, count)).map {
                    KafkaProducerRecord(
                        topic: topic, partition: Int32($0) % partitions, key: "k\($0)", value: Array("v\($0)".utf8))
                })
        }
        var counts: [Int32: Int64] = [:]
        for index in 0..<count { counts[Int32(index) % partitions, default: 0] += 1 }
        return counts
    }

    @Test("the process-wide budget bounds what all partitions buffer together, far below their own limits")
    func processWideBudget() async throws {
        let cluster = try TestCluster()
        let topic = try cluster.makeTopic("budget", partitions: 4)
        // 4 × 4,000 messages of 1 KiB: 16 MiB (the embedded broker keeps 5 MiB a partition), all
        // of which fits the 32 MiB each partition may hold.
        let value = String(repeating: "x", count: 1_024)
        for chunk in stride(from: 0, to: 16_000, by: 500) {
            try await cluster.producer.send(
                (chunk..<chunk + 500).map {
                    KafkaProducerRecord(topic: topic, partition: Int32($0 % 4), key: "k\($0)", value: Array(value.utf8))
                })
        }
        let handler = ProbeHandler(handleDelay: .milliseconds(1))
        let worker = try InProcessWorker(
            brokers: cluster.brokers, group: UniqueName.make("group"), topics: [topic], handler: handler,
            configureConsumer: { $0.maxBufferedBytesTotal = 1 << 20 })
        try? await waitUntil("every message handled", timeout: .seconds(150)) { handler.handled.count >= 16_000 }
        let peak = worker.consumer.peakBufferedBytes
        try await worker.stop()
        await cluster.shutdown()
        #expect(handler.handled.count >= 16_000)
        // Without the budget all 16 MiB are buffered at once (16.5 MiB measured). With it, what
        // comes past a partition's share is fetched again later: the budget, and at most a
        // message more per partition.
        #expect(peak <= (1 << 20) + 4 * 1_100, "\(peak >> 10) KiB buffered at once, over a budget of 1 MiB")
    }

    @Test("a partition's byte limit is its share of the budget, never above its own nor below 64 KiB")
    func budgetShares() throws {
        var configuration = KafkaConsumerConfiguration(
            client: KafkaClientConfiguration(brokers: "127.0.0.1:9"), groupID: "g")
        #expect(configuration.partitionByteLimit(holding: 4) == 32 << 20)
        #expect(configuration.partitionByteLimit(holding: 24) == (256 << 20) / 24)
        configuration.maxBufferedBytesTotal = 1 << 20
        #expect(configuration.partitionByteLimit(holding: 64) == 64 << 10)
    }

    @Test("tiny buffers and a slow handler: every offset of every partition is handled")
    func noOffsetSkipped() async throws {
        let cluster = try TestCluster()
        let topic = try cluster.makeTopic("paused", partitions: 2)
        let counts = try await Self.produce(cluster, topic: topic, partitions: 2, count: 2_000)
        let handler = ProbeHandler(handleDelay: .microseconds(300))
        let worker = try InProcessWorker(
            brokers: cluster.brokers, group: UniqueName.make("group"), topics: [topic], handler: handler,
            configureConsumer: Self.tinyBuffers)
        try? await waitUntil("every message handled", timeout: .seconds(120)) {
            Self.missing(handler.handled, topic: topic, counts: counts).isEmpty
        }
        try await worker.stop()
        await cluster.shutdown()
        let missing = Self.missing(handler.handled, topic: topic, counts: counts)
        #expect(missing.isEmpty, "\(missing)")
    }

    @Test("a second member joins and leaves during a backlog: the partitions it gives back run again, nothing skipped")
    func memberJoinsAndLeaves() async throws {
        let cluster = try TestCluster()
        let topic = try cluster.makeTopic("rebalanced", partitions: 4)
        // About ten seconds of work per partition: a backlog while members come and go.
        let counts = try await Self.produce(cluster, topic: topic, partitions: 4, count: 20_000)
        let group = UniqueName.make("group")
        let first = ProbeHandler(handleDelay: .milliseconds(2))
        let second = ProbeHandler(handleDelay: .milliseconds(2))
        let firstWorker = try InProcessWorker(
            brokers: cluster.brokers, group: group, topics: [topic], handler: first,
            configureConsumer: Self.tinyBuffers)
        try await waitUntil("the first member under way", timeout: .seconds(60)) { first.handled.count >= 200 }
        let secondWorker = try InProcessWorker(
            brokers: cluster.brokers, group: group, topics: [topic], handler: second,
            configureConsumer: Self.tinyBuffers)
        try await waitUntil("the second member handling its share", timeout: .seconds(60)) {
            second.handled.count >= 100
        }
        try await secondWorker.stop()
        // On a timeout the expectation below says which partitions stopped and where.
        try? await waitUntil("every message handled after the second member left", timeout: .seconds(120)) {
            Self.missing(first.handled + second.handled, topic: topic, counts: counts).isEmpty
        }
        try await firstWorker.stop()
        await cluster.shutdown()
        let missing = Self.missing(first.handled + second.handled, topic: topic, counts: counts)
        #expect(missing.isEmpty, "\(missing)")
    }
}
