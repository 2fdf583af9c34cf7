import CKafka
import Logging

/// librdkafka's mock cluster, which lives inside a client handle of its own.
///
/// Unchecked: it holds C handles; the mock cluster API locks internally and may be called
/// from any thread.
final class RDKafkaMockCluster: @unchecked Sendable {
    private let client: RDKafkaClient
    private let cluster: OpaquePointer
    /// `host:port` of each broker, comma-separated.
    let bootstrapServers: String

    init(brokerCount: Int, logger: Logger) throws {
        client = try RDKafkaClient(
            type: .producer, properties: [("client.id", "embedded-broker")],
            callbacks: RDKafkaCallbacks(logger: logger))
        guard let cluster = rd_kafka_mock_cluster_new(client.handle, Int32(brokerCount)) else {
            throw KafkaError("cannot start the embedded broker")
        }
        self.cluster = cluster
        self.bootstrapServers = String(cString: rd_kafka_mock_cluster_bootstraps(cluster))
    }

    deinit {
        rd_kafka_mock_cluster_destroy(cluster)
    }

    /// Creates a topic; one that exists is left as it is.
    func createTopic(_ name: String, partitions: Int, replicationFactor: Int) throws {
        let result = rd_kafka_mock_topic_create(cluster, name, Int32(partitions), Int32(replicationFactor))
        guard result == RD_KAFKA_RESP_ERR_NO_ERROR || result == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS else {
            throw KafkaError("cannot create topic \(name)", rdError: result)
        }
    }

    func setBrokerDown(_ brokerID: Int32) {
        _ = rd_kafka_mock_broker_set_down(cluster, brokerID)
    }

    func setBrokerUp(_ brokerID: Int32) {
        _ = rd_kafka_mock_broker_set_up(cluster, brokerID)
    }

    func setRoundTripTime(_ milliseconds: Int32, brokerID: Int32) {
        _ = rd_kafka_mock_broker_set_rtt(cluster, brokerID, milliseconds)
    }

    /// The next `errors.count` requests of `apiKey`, from any client, are answered with these errors.
    func failRequests(apiKey: Int16, with errors: [Int32]) {
        let codes = errors.map { rd_kafka_resp_err_t(rawValue: $0) }
        codes.withUnsafeBufferPointer {
            rd_kafka_mock_push_request_errors_array(cluster, apiKey, codes.count, $0.baseAddress)
        }
    }

    func clearRequestErrors(apiKey: Int16) {
        rd_kafka_mock_clear_request_errors(cluster, apiKey)
    }
}
