import CKafka
import Logging

/// A development Kafka cluster inside this process: librdkafka's mock cluster, speaking the
/// Kafka protocol over TCP on 127.0.0.1.
///
/// It keeps a few MiB per partition and does not enforce transactions: for development and
/// tests, never production.
// Unchecked: it holds C handles; librdkafka's mock cluster API locks internally and may be
// called from any thread.
package final class EmbeddedBroker: @unchecked Sendable {
    private let client: RDKafkaClient
    private let cluster: OpaquePointer
    /// `host:port` list to give clients as `--brokers`.
    package let bootstrapServers: String
    /// How many brokers the cluster has; broker ids run from 1.
    package let brokerCount: Int

    package init(brokerCount: Int = 1, logger: Logger) throws {
        // The mock cluster lives inside a client handle of its own.
        let callbacks = RDKafkaCallbacks(logger: logger)
        client = try RDKafkaClient(
            type: RD_KAFKA_PRODUCER, properties: [("client.id", "embedded-broker")], callbacks: callbacks)
        guard let cluster = rd_kafka_mock_cluster_new(client.handle, Int32(brokerCount)) else {
            throw KafkaError("cannot start the embedded broker")
        }
        self.cluster = cluster
        self.brokerCount = brokerCount
        self.bootstrapServers = String(cString: rd_kafka_mock_cluster_bootstraps(cluster))
    }

    deinit {
        rd_kafka_mock_cluster_destroy(cluster)
    }

    /// Creates a topic. Creating one that exists leaves it as it is.
    package func createTopic(_ name: String, partitions: Int, replicationFactor: Int = 1) throws {
        let result = rd_kafka_mock_topic_create(cluster, name, Int32(partitions), Int32(replicationFactor))
        guard result == RD_KAFKA_RESP_ERR_NO_ERROR || result == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS else {
            throw KafkaError("cannot create topic \(name)", rdError: result)
        }
    }

    /// Takes a broker off the network (its connections drop, new ones are refused).
    package func setBrokerDown(_ brokerID: Int32 = 1) {
        _ = rd_kafka_mock_broker_set_down(cluster, brokerID)
    }

    /// Puts a broker back on the network.
    package func setBrokerUp(_ brokerID: Int32 = 1) {
        _ = rd_kafka_mock_broker_set_up(cluster, brokerID)
    }

    /// Adds latency to every request a broker answers.
    package func setRoundTripTime(_ milliseconds: Int32, brokerID: Int32 = 1) {
        _ = rd_kafka_mock_broker_set_rtt(cluster, brokerID, milliseconds)
    }
}
