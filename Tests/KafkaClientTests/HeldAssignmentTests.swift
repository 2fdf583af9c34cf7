import ArtpipeTestKit
import KafkaClient
import KafkaTestKit
import Synchronization
import Testing

/// Where an assigned partition starts rests on the group's committed offset: one the broker
/// does not give is never read as "nothing committed" (docs/architecture.md, "The index's rules
/// of construction", rule 5).
@Suite("An assignment whose committed offsets the broker does not give", .timeLimit(.minutes(2)))
struct HeldAssignmentTests {
    /// Kafka's GROUP_AUTHORIZATION_FAILED: an answer librdkafka does not ask again for.
    static let refused: Int32 = 30

    @Test(
        "the start is decided once the broker answers: it hears the committed offset, never none, and is where the partition is read from",
        arguments: [true, false])
    func heldUntilAnswered(fromTheStart: Bool) async throws {
        let cluster = try TestCluster()
        let topic = try cluster.makeTopic("held", partitions: 1)
        try await cluster.produce(to: topic, 0..<20)
        var configuration = cluster.consumerConfiguration(group: "held-group")
        let group = configuration.groupID
        let offsets = KafkaGroupOffsets(configuration: cluster.consumerClient, logger: .test)
        try await offsets.execute(
            try await offsets.plan(group: group, topics: [topic], target: .offset(12)), memberTopics: [topic],
            joinTimeout: .seconds(30))

        // From the start, as a stage that restores its state from its input does; else from the
        // committed offset.
        let heard = Mutex<[Int64?]>([])
        configuration.startOffset = { _, committed, _ in
            heard.withLock { $0.append(committed) }
            return fromTheStart ? KafkaConsumerConfiguration.beginningOffset : nil
        }
        // The next three reads of committed offsets, the assignment's among them, are refused.
        cluster.broker.failRequests(apiKey: EmbeddedBroker.offsetFetchKey, count: 3, code: Self.refused)
        let consumer = try KafkaConsumer(configuration: configuration, logger: .test)
        try consumer.subscribe(topics: [topic])
        let running = Task { try await consumer.run() }
        let expected = Array(fromTheStart ? 0..<20 : 12..<20) as [Int64]
        var delivered: [Int64] = []
        for await batch in consumer.batches {
            for message in batch.messages where batch.lease.beginHandling() {
                delivered.append(message.offset)
                batch.lease.finishHandling(offset: message.offset)
            }
            batch.release()
            if delivered.count >= expected.count { break }
        }
        #expect(delivered == expected, "read from its start once the start was known")
        #expect(heard.withLock { $0 } == [12], "the start heard only the committed offset, never none")
        try await waitUntil("the group committed the end", timeout: .seconds(30)) {
            try await offsets.positions(group: group, topics: [topic]).map(\.committed) == [20]
        }
        consumer.shutdown()
        try await running.value
        await cluster.shutdown()
    }

    @Test(
        "while held, the consumer's health names the partition, and past the limit says it is not ready; ready once the broker answers"
    )
    func heldInHealth() async throws {
        let cluster = try TestCluster()
        let topic = try cluster.makeTopic("held-health", partitions: 1)
        try await cluster.produce(to: topic, 0..<5)
        var configuration = cluster.consumerConfiguration(group: "held-health-group")
        configuration.startOffset = { _, _, _ in nil }
        // Refused until the test has seen the hold, however late it looks.
        cluster.broker.failRequests(apiKey: EmbeddedBroker.offsetFetchKey, count: 1_000, code: Self.refused)
        let consumer = try KafkaConsumer(configuration: configuration, logger: .test)
        try consumer.subscribe(topics: [topic])
        let running = Task { try await consumer.run() }
        let draining = Task {
            for await batch in consumer.batches {
                for message in batch.messages where batch.lease.beginHandling() {
                    batch.lease.finishHandling(offset: message.offset)
                }
                batch.release()
            }
        }
        try await waitUntil("the assignment to be held", timeout: .seconds(30)) { consumer.health.held != nil }
        let health = consumer.health
        let held = try #require(health.held)
        cluster.broker.answerRequests(apiKey: EmbeddedBroker.offsetFetchKey)
        #expect(held.partitions == 1)
        let note = health.heldNote(now: held.since + .seconds(12))
        #expect(note?.hasPrefix("1 partition(s) held for 12 s: the broker has not said") == true, "\(note ?? "none")")
        #expect(!health.isHeldTooLong(now: held.since + .seconds(1)), "a moment's hold holds up no rolling update")
        #expect(health.isHeldTooLong(now: held.since + KafkaConsumerHealth.heldLimit + .seconds(1)))
        #expect(!health.isReady(now: held.since + KafkaConsumerHealth.heldLimit + .seconds(1)))
        try await waitUntil("the broker to answer and the partition to start", timeout: .seconds(60)) {
            consumer.health.held == nil && consumer.health.heldNote() == nil && consumer.health.isReady()
        }
        consumer.shutdown()
        try await running.value
        draining.cancel()
        await cluster.shutdown()
    }
}
