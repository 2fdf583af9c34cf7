import ArtpipeTestKit
import KafkaClient
import KafkaTestKit
import Synchronization
import Testing

/// ``KafkaFetchStates`` read from a real consumer's statistics: a partition assigned but not
/// yet fetching is named, and only while it waits.
@Suite("Partitions librdkafka is not fetching, through the embedded broker", .timeLimit(.minutes(4)))
struct FetchStatesTests {
    /// Kafka's NOT_LEADER_OR_FOLLOWER: an answer to an offset lookup that librdkafka asks again
    /// for, half a second later, with the partition back in "offset-query".
    static let notLeader: Int32 = 6

    @Test(
        "a broker that refuses offset lookups leaves new partitions waiting: named while they wait, not once they fetch"
    )
    func waitingPartitionsAreNamed() async throws {
        let cluster = try TestCluster()
        let topic = try cluster.makeTopic("slow-offsets", partitions: 2)
        try await cluster.produce(to: topic, 0..<20)
        var configuration = cluster.consumerConfiguration()
        configuration.statisticsInterval = .milliseconds(100)
        // No committed offsets: each partition's start is looked up (ListOffsets). The next 40
        // lookups are refused, so the partitions wait before their first fetch for as long as the
        // refusals last (half a second each, at least), not for a window a loaded machine misses.
        cluster.broker.failRequests(apiKey: EmbeddedBroker.listOffsetsKey, count: 40, code: Self.notLeader)
        let consumer = try KafkaConsumer(configuration: configuration, logger: .test)
        try consumer.subscribe(topics: [topic])
        let running = Task { try await consumer.run() }
        let named = Mutex<[KafkaTopicPartition: String]>([:])
        try await waitUntil("an assigned partition named as not fetching", timeout: .seconds(60)) {
            let states = consumer.fetchStates?.notFetching ?? [:]
            named.withLock { $0.merge(states) { $1 } }
            return !states.isEmpty
        }
        let held = Set((0..<2).map { KafkaTopicPartition(topic: topic, partition: Int32($0)) })
        let seen = named.withLock { $0 }
        #expect(Set(seen.keys).isSubset(of: held), "\(seen)")
        #expect(!seen.values.contains("active"), "\(seen)")

        var delivered = 0
        for await batch in consumer.batches {
            delivered += batch.messages.count
            batch.release()
            if delivered >= 20 { break }
        }
        #expect(delivered == 20)
        try await waitUntil("every partition fetching", timeout: .seconds(60)) {
            consumer.fetchStates?.notFetching.isEmpty == true
        }
        consumer.shutdown()
        try await running.value
        await cluster.shutdown()
    }
}
