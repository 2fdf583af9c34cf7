import ArtpipeTestKit
import KafkaClient
import KafkaTestKit
import Testing

/// The producer counting how far the broker acknowledged its records, over real TCP to the
/// embedded broker.
@Suite("Acknowledged ends: what a producer's records reached", .timeLimit(.minutes(1)))
struct AcknowledgedEndsTests {
    @Test("each partition's end is the offset after its last record acknowledged, for the topics followed")
    func endsOfAcknowledged() async throws {
        let cluster = try TestCluster()
        let (followed, other) = (
            try cluster.makeTopic("acked", partitions: 3), try cluster.makeTopic("other", partitions: 3)
        )
        // Records already there when the producer starts are not its own.
        try await cluster.producer.send(
            (0..<4).map { KafkaProducerRecord(topic: followed, partition: 1, key: "old\($0)", value: [1]) })
        let ends = KafkaAcknowledgedEnds(topics: [followed])
        let producer = try KafkaProducer(
            configuration: KafkaClientConfiguration(brokers: cluster.brokers), acknowledgedEnds: ends, logger: .test)
        #expect(ends.ends(of: followed, partitions: 3) == [0, 0, 0])

        let records = { (topic: String, partition: Int32, count: Int) in
            (0..<count).map { KafkaProducerRecord(topic: topic, partition: partition, key: "k\($0)", value: [2]) }
        }
        try await producer.send(records(followed, 0, 3) + records(followed, 1, 2) + records(other, 2, 5))
        // Known as soon as send returns: the report is counted before the sender hears it.
        #expect(ends.ends(of: followed, partitions: 3) == [3, 6, 0])
        #expect(ends.ends(of: other, partitions: 3) == [0, 0, 0])
        try await producer.send(records(followed, 0, 2))
        #expect(ends.ends(of: followed, partitions: 3) == [5, 6, 0])
        // More partitions asked than were written to: nothing acknowledged there.
        #expect(ends.ends(of: followed, partitions: 4) == [5, 6, 0, 0])
        await producer.shutdown()
        await cluster.shutdown()
    }
}
