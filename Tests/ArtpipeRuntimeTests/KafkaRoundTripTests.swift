import ArtpipeTestKit
import KafkaClient
import KafkaTestKit
import Testing

@Suite("Kafka round trip on the embedded broker", .serialized, .timeLimit(.minutes(3)))
struct KafkaRoundTripTests {
    @Test("10,000 keyed messages over 6 partitions are produced, consumed in order and committed, none lost")
    func tenThousandMessages() async throws {
        let cluster = try TestCluster()
        let topic = try cluster.makeTopic("roundtrip", partitions: 6)
        let count = 10_000
        try await cluster.produce(to: topic, 0..<count)

        let group = UniqueName.make("group")
        let handler = ProbeHandler()
        let worker = try InProcessWorker(brokers: cluster.brokers, group: group, topics: [topic], handler: handler)
        try await waitUntil("\(count) messages handled", timeout: .seconds(60)) { handler.handled.count >= count }
        try await worker.stop()

        let handled = handler.handled
        #expect(handled.count == count)
        #expect(Set(handled.compactMap(\.key)) == Set((0..<count).map { "k\($0)" }))
        #expect(Set(handled.map(\.partition)) == Set(0..<6))
        for partition in Int32(0)..<6 {
            let offsets = handled.filter { $0.partition == partition }.map(\.offset)
            #expect(offsets == Array(0..<Int64(offsets.count)), "partition \(partition) handled in offset order")
        }

        // Whatever was not committed would reach a new member of the group before the marker
        // of its partition; only the six markers must arrive.
        try await cluster.producer.send(
            (Int32(0)..<6).map { KafkaProducerRecord(topic: topic, partition: $0, key: "marker-\($0)", value: []) })
        let second = ProbeHandler()
        let restarted = try InProcessWorker(brokers: cluster.brokers, group: group, topics: [topic], handler: second)
        try await waitUntil("the six markers", timeout: .seconds(60)) { second.handled.count >= 6 }
        try await restarted.stop()
        #expect(second.handled.compactMap(\.key).sorted() == (0..<6).map { "marker-\($0)" })
        await cluster.shutdown()
    }
}
