import Logging
import Testing

@testable import KafkaClient

/// A rebalance served while the consumer's group is torn down cannot ask librdkafka for the
/// group's protocol (it answers NULL): the configured strategy answers instead.
@Suite("The rebalance protocol a consumer's configuration names")
struct RebalanceProtocolTests {
    @Test("only cooperative-sticky is cooperative; librdkafka's default is eager")
    func strategies() {
        #expect(RDKafkaRebalance.isCooperative(strategy: "cooperative-sticky"))
        #expect(RDKafkaRebalance.isCooperative(strategy: " cooperative-sticky "))
        #expect(!RDKafkaRebalance.isCooperative(strategy: nil))
        #expect(!RDKafkaRebalance.isCooperative(strategy: "range"))
        #expect(!RDKafkaRebalance.isCooperative(strategy: "range,roundrobin"))
        #expect(!RDKafkaRebalance.isCooperative(strategy: "cooperative"))
    }

    @Test("the protocol librdkafka names decides; when it names none, the configured strategy does")
    func namedOrConfigured() {
        for configured in [false, true] {
            #expect(RDKafkaRebalance.isCooperative(protocolName: nil, configured: configured) == configured)
            #expect(
                "COOPERATIVE".withCString { RDKafkaRebalance.isCooperative(protocolName: $0, configured: configured) })
            #expect(!"EAGER".withCString { RDKafkaRebalance.isCooperative(protocolName: $0, configured: configured) })
            #expect(!"NONE".withCString { RDKafkaRebalance.isCooperative(protocolName: $0, configured: configured) })
        }
    }

    @Test("a client's callbacks keep the last strategy its properties set")
    func lastPropertyWins() throws {
        let logger = Logger(label: "test")
        let cooperative = RDKafkaCallbacks(logger: logger)
        _ = try RDKafkaClient(
            type: .consumer,
            properties: [
                ("bootstrap.servers", "127.0.0.1:1"), ("group.id", "g"),
                ("partition.assignment.strategy", "range"),
                ("partition.assignment.strategy", "cooperative-sticky"),
            ],
            callbacks: cooperative)
        #expect(cooperative.configuredCooperative)
        let eager = RDKafkaCallbacks(logger: logger)
        _ = try RDKafkaClient(
            type: .consumer, properties: [("bootstrap.servers", "127.0.0.1:1"), ("group.id", "g")], callbacks: eager)
        #expect(!eager.configuredCooperative)
    }
}
