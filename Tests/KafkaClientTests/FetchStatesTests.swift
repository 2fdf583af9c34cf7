import ArtpipeTestKit
import KafkaClient
import KafkaTestKit
import Synchronization
import Testing

/// ``KafkaFetchStates`` read from a real consumer's statistics: a partition assigned but not
/// yet fetching is named, and only while it waits.
@Suite("Partitions librdkafka is not fetching, through the embedded broker", .timeLimit(.minutes(6)))
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
        // A session long enough that the poll gaps of a loaded machine never end it mid-wait; a
        // lone member's join does not wait it out.
        configuration.client.properties["session.timeout.ms"] = "30000"
        // No committed offsets: each partition's start is looked up (ListOffsets), by librdkafka
        // alone (this consumer chooses no start of its own). The next 100 lookups are refused, so
        // the partitions wait before their first fetch for as long as the refusals last (a
        // quarter to half a second each), not for a window a loaded machine misses.
        cluster.broker.failRequests(apiKey: EmbeddedBroker.listOffsetsKey, count: 100, code: Self.notLeader)
        let consumer = try KafkaConsumer(configuration: configuration, logger: .test)
        try consumer.subscribe(topics: [topic])
        let running = Task { try await consumer.run() }
        // A deadline for the join that holds on a machine running the whole suite.
        try await waitUntil("both partitions assigned", timeout: .seconds(150)) {
            consumer.health.assignedPartitions == 2
        }
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
        try await waitUntil("every partition fetching", timeout: .seconds(120)) {
            consumer.fetchStates?.notFetching.isEmpty == true
        }
        consumer.shutdown()
        try await running.value
        await cluster.shutdown()
    }
}
