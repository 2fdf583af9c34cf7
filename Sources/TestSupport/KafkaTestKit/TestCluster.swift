import ArtpipeTestKit
import KafkaClient
import Logging

/// An embedded broker with a producer, for tests: unique topics and keyed test messages.
package final class TestCluster: Sendable {
    package let broker: EmbeddedBroker
    package let producer: KafkaProducer

    package init() throws {
        broker = try EmbeddedBroker(logger: .test)
        producer = try KafkaProducer(
            configuration: KafkaClientConfiguration(brokers: broker.bootstrapServers), logger: .test)
    }

    package var brokers: String { broker.bootstrapServers }

    /// A client of this cluster whose consumers join groups as quickly as the embedded broker allows.
    package var consumerClient: KafkaClientConfiguration {
        KafkaClientConfiguration(brokers: brokers, properties: EmbeddedBrokerSettings.consumer)
    }

    /// A consumer of this cluster in a group no other test uses.
    package func consumerConfiguration(group prefix: String = "group") -> KafkaConsumerConfiguration {
        KafkaConsumerConfiguration(client: consumerClient, groupID: UniqueName.make(prefix))
    }

    /// Creates a topic named after `prefix` that no other test uses.
    package func makeTopic(_ prefix: String, partitions: Int) throws -> String {
        let name = UniqueName.make(prefix)
        try broker.createTopic(name, partitions: partitions)
        return name
    }

    /// Produces messages keyed `k<i>` with value `value(i)` (default `v<i>`), waiting for acknowledgements.
    package func produce(
        to topic: String, _ indices: Range<Int>, value: (Int) -> String = { "v\($0)" },
        headers: (Int) -> [KafkaHeader] = { _ in [] }
    ) async throws {
        try await producer.send(
            indices.map {
                KafkaProducerRecord(topic: topic, key: "k\($0)", value: Array(value($0).utf8), headers: headers($0))
            })
    }

    package func shutdown() async {
        await producer.shutdown()
    }
}
