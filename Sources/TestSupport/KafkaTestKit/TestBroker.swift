import KafkaClient

/// The broker a test's processes use: the embedded one, or Tansu (``TansuCluster``).
package enum TestBroker: Sendable {
    case embedded(TestCluster)
    case tansu(TansuCluster)

    /// Its bootstrap servers.
    package var brokers: String {
        switch self {
        case .embedded(let cluster): cluster.brokers
        case .tansu(let cluster): cluster.brokers
        }
    }

    /// Its producer, for what the test itself sends.
    package var producer: KafkaProducer {
        switch self {
        case .embedded(let cluster): cluster.producer
        case .tansu(let cluster): cluster.producer
        }
    }

    package func shutdown() async {
        switch self {
        case .embedded(let cluster): await cluster.shutdown()
        case .tansu(let cluster): await cluster.shutdown()
        }
    }
}
