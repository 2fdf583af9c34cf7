import ArtpipeTestKit
import Testing

@testable import KafkaClient

@Suite("Client configuration", .timeLimit(.minutes(1)))
struct ClientConfigurationTests {
    @Test("the user's properties override a client's defaults but never its fixed settings")
    func propertyPrecedence() {
        let configuration = KafkaClientConfiguration(
            brokers: "127.0.0.1:9092",
            properties: ["linger.ms": "50", "group.id": "theirs", "security.protocol": "ssl"], clientID: "app")
        let properties = configuration.clientProperties(
            clientIDSuffix: "offsets", defaults: [("linger.ms", "5")], fixed: [("group.id", "ours")])
        func last(_ key: String) -> String? { properties.last { $0.0 == key }?.1 }
        #expect(last("bootstrap.servers") == "127.0.0.1:9092")
        #expect(last("client.id") == "app-offsets")
        #expect(last("linger.ms") == "50")
        #expect(last("security.protocol") == "ssl")
        #expect(last("group.id") == "ours")
    }

    @Test("an unknown property or a bad value is refused before any client exists")
    func validation() {
        #expect(throws: KafkaError.self) {
            try KafkaClientConfiguration(brokers: "b", properties: ["no.such.property": "1"]).validate()
        }
        #expect(throws: KafkaError.self) {
            try KafkaClientConfiguration(brokers: "b", properties: ["linger.ms": "soon"]).validate()
        }
        #expect(throws: Never.self) {
            try KafkaClientConfiguration(brokers: "b", properties: ["linger.ms": "10"]).validate()
        }
    }

    @Test("a producer can be shut down twice, and concurrently")
    func producerShutdownTwice() async throws {
        let broker = try EmbeddedBroker(logger: .test)
        let producer = try KafkaProducer(
            configuration: KafkaClientConfiguration(brokers: broker.bootstrapServers), logger: .test)
        async let first: Void = producer.shutdown(timeout: .seconds(1))
        async let second: Void = producer.shutdown(timeout: .seconds(1))
        _ = await (first, second)
        await producer.shutdown(timeout: .seconds(1))
    }
}
