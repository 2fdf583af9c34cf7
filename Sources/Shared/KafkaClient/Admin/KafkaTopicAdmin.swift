import Logging

/// Creates topics on a real Kafka cluster with the CreateTopics admin request.
///
/// The embedded broker does not implement admin requests: it creates its topics itself
/// (``EmbeddedBroker/createTopic(_:partitions:replicationFactor:)``).
package enum KafkaTopicAdmin {
    /// Creates each topic that does not exist yet, with its `settings` (`cleanup.policy`…).
    /// Returns the names it created.
    package static func createTopics(
        _ names: [String], partitions: Int, replicationFactor: Int, settings: [String: [String: String]] = [:],
        configuration: KafkaClientConfiguration, timeout: Duration, logger: Logger
    ) async throws -> [String] {
        let properties = configuration.clientProperties(clientIDSuffix: "admin")
        let client = try RDKafkaClient(
            type: .producer, properties: properties, callbacks: RDKafkaCallbacks(logger: logger))
        let timeoutMilliseconds = timeout.timeoutMilliseconds
        return try await configuration.runBlocking {
            try client.createTopics(
                names, partitions: partitions, replicationFactor: replicationFactor, settings: settings,
                timeoutMilliseconds: timeoutMilliseconds)
        }
    }
}
