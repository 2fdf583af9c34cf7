import ArtpipeTestKit
import KafkaClient
import KafkaTestKit
import StreamTasks
import Testing

@testable import IndexWorker

/// The ends a copy's publisher uses for the rows it wrote: the broker once an assignment, then
/// its own producer's acknowledgements.
@Suite("Written ends: the broker once an assignment, then the acknowledgements", .timeLimit(.minutes(2)))
struct WrittenEndsTests {
    @Test("the broker is asked once an assignment, and the ends follow what the copy wrote since, never lower")
    func askedOncePerAssignment() async throws {
        let cluster = try TestCluster()
        let topic = try cluster.makeTopic("written", partitions: 2)
        let acknowledged = KafkaAcknowledgedOffsets()
        let producer = try KafkaProducer(
            configuration: KafkaClientConfiguration(brokers: cluster.brokers), acknowledged: acknowledged, logger: .test
        )
        let broker = KafkaGroupPositions(configuration: cluster.consumerClient, logger: .test)
        let group = UniqueName.make("written-group")
        let ends = WrittenEnds(topic: topic, acknowledged: acknowledged)
        let ask = { try await broker.ends(of: topic, group: group) }
        let send = { (producer: KafkaProducer, partition: Int32, count: Int) in
            try await producer.send(
                (0..<count).map { KafkaProducerRecord(topic: topic, partition: partition, key: "k\($0)", value: [1]) })
        }
        // Another writer's rows before the assignment: the broker's ends hold them.
        try await send(cluster.producer, 0, 4)
        #expect(try await ends.ends(under: AssignmentEpoch(1), ask: ask) == [4, 0])
        try await send(producer, 1, 3)
        try await send(producer, 0, 1)
        #expect(try await ends.ends(under: AssignmentEpoch(1), ask: ask) == [5, 3])
        #expect(ends.questionsAsked == 1)
        // A new assignment asks again: what others wrote before it is counted.
        try await send(cluster.producer, 1, 2)
        #expect(try await ends.ends(under: AssignmentEpoch(2), ask: ask) == [5, 5])
        #expect(try await ends.ends(under: AssignmentEpoch(2), ask: ask) == [5, 5])
        #expect(ends.questionsAsked == 2)
        #expect(try await broker.ends(of: topic, group: group) == [5, 5])
        // Without acknowledgements to go by, every question goes to the broker.
        let unreported = WrittenEnds(topic: topic, acknowledged: KafkaAcknowledgedOffsets())
        for _ in 0..<2 { #expect(try await unreported.ends(under: AssignmentEpoch(2), ask: ask) == [5, 5]) }
        #expect(unreported.questionsAsked == 2)
        await producer.shutdown()
        await cluster.shutdown()
    }
}
