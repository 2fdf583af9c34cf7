import ArtpipeTestKit
import KafkaClient
import KafkaTestKit
import Testing

/// The offsets a producer's delivery reports carry, against the embedded broker's own ends.
@Suite("Acknowledged offsets: where a producer's own records end", .timeLimit(.minutes(2)))
struct AcknowledgedOffsetsTests {
    @Test("each partition ends one past the highest offset delivered, as the broker says, and only the topic asked")
    func endsFollowDeliveries() async throws {
        let cluster = try TestCluster()
        let (topic, other) = (
            try cluster.makeTopic("acked", partitions: 3), try cluster.makeTopic("acked-b", partitions: 1)
        )
        // Records before the producer: not its own, so not in what it knows.
        try await cluster.producer.send([KafkaProducerRecord(topic: topic, partition: 0, key: "before", value: [0])])
        let acknowledged = KafkaAcknowledgedOffsets()
        #expect(acknowledged.ends(of: topic, partitions: 3) == nil, "no producer reports here yet")
        let producer = try KafkaProducer(
            configuration: KafkaClientConfiguration(brokers: cluster.brokers), acknowledged: acknowledged, logger: .test
        )
        #expect(acknowledged.ends(of: topic, partitions: 3) == [0, 0, 0])
        for (partition, count) in [(Int32(0), 2), (2, 5)] {
            try await producer.send(
                (0..<count).map { KafkaProducerRecord(topic: topic, partition: partition, key: "k\($0)", value: [1]) })
        }
        try await producer.send([KafkaProducerRecord(topic: other, partition: 0, key: "o", value: [2])])
        let broker = KafkaGroupPositions(configuration: cluster.consumerClient, logger: .test)
        let ends = try await broker.ends(of: topic, group: UniqueName.make("acked-group"))
        #expect(ends == [3, 0, 5])
        #expect(acknowledged.ends(of: topic, partitions: 3) == ends)
        #expect(acknowledged.ends(of: other, partitions: 1) == [1])
        #expect(acknowledged.ends(of: "artpipe.none", partitions: 2) == [0, 0])
        await producer.shutdown()
        await cluster.shutdown()
    }
}
