import Logging

/// A development Kafka cluster inside this process: librdkafka's mock cluster, speaking the
/// Kafka protocol over TCP on 127.0.0.1.
///
/// It keeps a few MiB per partition and does not enforce transactions: for development and
/// tests, never production.
package final class EmbeddedBroker: Sendable {
    private let cluster: RDKafkaMockCluster
    /// `host:port` list to give clients as `--brokers`.
    package var bootstrapServers: String { cluster.bootstrapServers }
    /// How many brokers the cluster has; broker ids run from 1.
    package let brokerCount: Int

    package init(brokerCount: Int = 1, logger: Logger) throws {
        self.cluster = try RDKafkaMockCluster(brokerCount: brokerCount, logger: logger)
        self.brokerCount = brokerCount
    }

    /// Creates a topic. Creating one that exists leaves it as it is.
    package func createTopic(_ name: String, partitions: Int, replicationFactor: Int = 1) throws {
        try cluster.createTopic(name, partitions: partitions, replicationFactor: replicationFactor)
    }

    /// Takes a broker off the network (its connections drop, new ones are refused).
    package func setBrokerDown(_ brokerID: Int32 = 1) {
        cluster.setBrokerDown(brokerID)
    }

    /// Puts a broker back on the network.
    package func setBrokerUp(_ brokerID: Int32 = 1) {
        cluster.setBrokerUp(brokerID)
    }

    /// Adds latency to every request a broker answers.
    package func setRoundTripTime(_ milliseconds: Int32, brokerID: Int32 = 1) {
        cluster.setRoundTripTime(milliseconds, brokerID: brokerID)
    }

    /// Kafka's API key of ListOffsets, the request that looks up a partition's first or last offset.
    package static let listOffsetsKey: Int16 = 2

    /// Kafka's API key of OffsetFetch, the request that reads a group's committed offsets.
    package static let offsetFetchKey: Int16 = 9

    /// Answers the next `count` requests of `apiKey`, from any client, with the Kafka error
    /// `code` (a fault, for tests).
    package func failRequests(apiKey: Int16, count: Int, code: Int32) {
        cluster.failRequests(apiKey: apiKey, with: Array(repeating: code, count: count))
    }

    /// Answers requests of `apiKey` again: the errors ``failRequests(apiKey:count:code:)`` left
    /// are dropped.
    package func answerRequests(apiKey: Int16) {
        cluster.clearRequestErrors(apiKey: apiKey)
    }
}
