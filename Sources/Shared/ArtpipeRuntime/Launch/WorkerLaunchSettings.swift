import KafkaClient

/// How a worker process runs, whatever its handler: where Kafka is and the runtime's limits.
/// The command line builds it from flags and environment.
public struct WorkerLaunchSettings: Sendable {
    public var client: KafkaClientConfiguration
    /// Partitions handled at the same time.
    public var concurrency: Int
    public var metricsInterval: Duration = .seconds(10)
    /// How long a shutdown or rebalance waits for messages being handled.
    public var drainTimeout: Duration = .seconds(30)
    public var maxBufferedPerPartition = 50_000
    public var maxBufferedBytesPerPartition = 32 << 20
    /// How long to wait for the brokers to answer at start.
    public var connectTimeout: Duration = .seconds(10)

    public init(client: KafkaClientConfiguration, concurrency: Int) {
        self.client = client
        self.concurrency = concurrency
    }
}
