import ArtpipeTestKit
import KafkaClient
import KafkaTestKit
import Synchronization
import Testing

/// ``KafkaFetchStates`` read from a real consumer's statistics: a partition assigned but not
/// yet fetching is named, and only while it waits.
@Suite("Partitions librdkafka is not fetching, through the embedded broker", .timeLimit(.minutes(4)))
struct FetchStatesTests {
    @Test("a slow broker leaves new partitions looking up offsets: named while they wait, not once they fetch")
    func waitingPartitionsAreNamed() async throws {
        let cluster = try TestCluster()
        let topic = try cluster.makeTopic("slow-offsets", partitions: 2)
        try await cluster.produce(to: topic, 0..<20)
        var configuration = cluster.consumerConfiguration()
        configuration.statisticsInterval = .milliseconds(100)
        // Every answer, heartbeats too, takes 1.5 s below: with the tests' 6 s session, a loaded
        // machine lost the partitions mid-wait (make test, once). A lone member's join does not wait it.
        configuration.client.properties["session.timeout.ms"] = "30000"
        // Each answer takes 1.5 s, the offset lookups of the assignment too: the input here. Set
        // before the subscription: set after, a loaded machine (make test, once) had the partitions
        // assigned and fetching before it took effect, and none was ever seen waiting.
        cluster.broker.setRoundTripTime(1_500)
        let consumer = try KafkaConsumer(configuration: configuration, logger: .test)
        try consumer.subscribe(topics: [topic])
        let running = Task { try await consumer.run() }
        let named = Mutex<[KafkaTopicPartition: String]>([:])
        // Every request waits 1.5 s, the group's join too: on a machine running the whole suite
        // the assignment can take minutes.
        try await waitUntil("an assigned partition named as not fetching", timeout: .seconds(150)) {
            let states = consumer.fetchStates?.notFetching ?? [:]
            named.withLock { $0.merge(states) { $1 } }
            return !states.isEmpty
        }
        let held = Set((0..<2).map { KafkaTopicPartition(topic: topic, partition: Int32($0)) })
        let seen = named.withLock { $0 }
        #expect(Set(seen.keys).isSubset(of: held), "\(seen)")
        #expect(!seen.values.contains("active"), "\(seen)")

        cluster.broker.setRoundTripTime(0)
        var delivered = 0
        for await batch in consumer.batches {
            delivered += batch.messages.count
            batch.release()
            if delivered >= 20 { break }
        }
        #expect(delivered == 20)
        try await waitUntil("every partition fetching", timeout: .seconds(30)) {
            consumer.fetchStates?.notFetching.isEmpty == true
        }
        consumer.shutdown()
        try await running.value
        await cluster.shutdown()
    }
}
