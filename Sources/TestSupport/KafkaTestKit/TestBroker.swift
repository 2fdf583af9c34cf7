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

    /// The `--kafka` flags of the workers a test starts on it: groups that settle quickly.
    package var workerFlags: [String] {
        switch self {
        case .embedded: EmbeddedBrokerSettings.flags
        case .tansu: EmbeddedBrokerSettings.flags + ["--kafka", "max.poll.interval.ms=15000"]
        }
    }

    package func shutdown() async {
        switch self {
        case .embedded(let cluster): await cluster.shutdown()
        case .tansu(let cluster): await cluster.shutdown()
        }
    }
}
