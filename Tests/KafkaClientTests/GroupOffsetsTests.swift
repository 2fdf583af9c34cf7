import ArtpipeTestKit
import Foundation
import KafkaClient
import KafkaTestKit
import Testing

/// Planning and committing offset moves on the embedded broker, which can neither describe
/// groups nor look up offsets by time.
@Suite("Consumer group offsets: replay plans and commits", .timeLimit(.minutes(2)))
struct GroupOffsetsTests {
    @Test("every target is planned from the partition's range and committed offset, and commits as planned")
    func plansAndCommits() async throws {
        let cluster = try TestCluster()
        let topic = try cluster.makeTopic("offsets", partitions: 1)
        try await cluster.produce(to: topic, 0..<5)
        let boundary = Date()
        // The broker stamps messages in milliseconds: the next ones must come a tick later.
        try await waitUntil("the clock to pass the boundary", timeout: .seconds(1)) {
            Date().timeIntervalSince(boundary) > 0.005
        }
        try await cluster.produce(to: topic, 5..<10)
        let group = UniqueName.make("replay-group")
        let offsets = KafkaGroupOffsets(configuration: cluster.consumerClient, logger: .test)

        let earliest = try await offsets.plan(group: group, topics: [topic], target: .earliest)
        #expect(earliest.rows.map(\.target) == [0])
        #expect(earliest.rows.first?.committed == nil)
        #expect(earliest.rows.first?.high == 10)
        #expect(try await offsets.plan(group: group, topics: [topic], target: .offset(100)).rows.map(\.target) == [10])
        #expect(
            try await offsets.plan(group: group, topics: [topic], target: .dateTime(boundary)).rows.map(\.target) == [5]
        )
        #expect(
            try await offsets.plan(group: group, topics: [topic], target: .dateTime(Date().addingTimeInterval(60))).rows
                .map(\.target) == [10])

        let toEight = try await offsets.plan(group: group, topics: [topic], target: .offset(8))
        try await offsets.execute(toEight, memberTopics: [topic], joinTimeout: .seconds(30))
        #expect(try await offsets.positions(group: group, topics: [topic]).map(\.committed) == [8])
        let back = try await offsets.plan(group: group, topics: [topic], target: .shift(-3))
        #expect(back.rows.map(\.target) == [5])
        #expect(back.messagesToReplay == 3)
        // A shift past either end clamps; it never overflows.
        let far = try await offsets.plan(group: group, topics: [topic], target: .shift(Int64.max))
        #expect(far.rows.map(\.target) == [10])
        let before = try await offsets.plan(group: group, topics: [topic], target: .shift(Int64.min))
        #expect(before.rows.map(\.target) == [0])
        await cluster.shutdown()
    }

    @Test("the positions of many partitions, asked of the broker together, are each partition's own")
    func positionsTogether() async throws {
        let cluster = try TestCluster()
        let first = try cluster.makeTopic("positions-a", partitions: 3)
        let second = try cluster.makeTopic("positions-b", partitions: 2)
        // 0, 3 and 7 messages in the first topic's partitions, 5 and 1 in the second's.
        let counts: [(String, Int32, Int)] = [(first, 1, 3), (first, 2, 7), (second, 0, 5), (second, 1, 1)]
        for (topic, partition, count) in counts {
            try await cluster.producer.send(
                (0..<count).map { KafkaProducerRecord(topic: topic, partition: partition, key: "k\($0)", value: [1]) })
        }
        let offsets = KafkaGroupOffsets(
            configuration: KafkaClientConfiguration(brokers: cluster.brokers), logger: .test)
        let positions = try await offsets.positions(group: UniqueName.make("g"), topics: [first, second])
        #expect(positions.map(\.topicPartition.topic) == [first, first, first, second, second])
        #expect(positions.map(\.topicPartition.partition) == [0, 1, 2, 0, 1])
        #expect(positions.map(\.high) == [0, 3, 7, 5, 1])
        #expect(positions.map(\.low) == [0, 0, 0, 0, 0])
        #expect(positions.allSatisfy { $0.committed == nil })
        await cluster.shutdown()
    }

    @Test("a group's committed offsets and a topic's ends, asked again and again over one client, follow the broker")
    func positionsAskedAgain() async throws {
        let cluster = try TestCluster()
        let topic = try cluster.makeTopic("watched", partitions: 3)
        let produce = { (partition: Int32, count: Int) in
            try await cluster.producer.send(
                (0..<count).map { KafkaProducerRecord(topic: topic, partition: partition, key: "k\($0)", value: [1]) })
        }
        try await produce(1, 3)
        try await produce(2, 7)
        let configuration = cluster.consumerClient
        let group = UniqueName.make("watched-group")
        let positions = KafkaGroupPositions(configuration: configuration, logger: .test)
        // Nothing committed: each partition counts from its low watermark.
        #expect(try await positions.committed(group: group, topic: topic) == [0, 0, 0])
        #expect(try await positions.ends(of: topic, group: group) == [0, 3, 7])
        let offsets = KafkaGroupOffsets(configuration: configuration, logger: .test)
        let plan = try await offsets.plan(group: group, topics: [topic], target: .offset(2))
        try await offsets.execute(plan, memberTopics: [topic], joinTimeout: .seconds(30))
        try await produce(0, 4)
        // The same client and kept partition counts: the answers are the broker's new ones.
        #expect(try await positions.committed(group: group, topic: topic) == [0, 2, 2])
        #expect(try await positions.ends(of: topic, group: group) == [4, 3, 7])
        let error = await #expect(throws: KafkaError.self) {
            _ = try await positions.ends(of: "no-such-topic", group: group)
        }
        #expect(error?.message.contains("no-such-topic") == true)
        await cluster.shutdown()
    }

    @Test("a missing topic is an error naming it")
    func missingTopic() async throws {
        let cluster = try TestCluster()
        let offsets = KafkaGroupOffsets(
            configuration: KafkaClientConfiguration(brokers: cluster.brokers), logger: .test)
        let error = await #expect(throws: KafkaError.self) {
            _ = try await offsets.plan(group: "g", topics: ["no-such-topic"], target: .earliest)
        }
        #expect(error?.message.contains("no-such-topic") == true)
        await cluster.shutdown()
    }
}
