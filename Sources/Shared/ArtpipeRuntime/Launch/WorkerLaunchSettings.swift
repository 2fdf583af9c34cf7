import KafkaClient

/// How a worker process runs, whatever its handler: where Kafka is and the runtime's limits.
/// The command line builds it from flags and environment.
package struct WorkerLaunchSettings: Sendable {
    package var client: KafkaClientConfiguration
    /// Partitions handled at the same time.
    package var concurrency: Int
    /// How long the producer waits to fill a batch: workers whose handlers wait for their
    /// records' acknowledgement one message at a time pay it on every message.
    package var producerLinger: Duration = .milliseconds(5)
    /// Where the producer keeps the offsets of what it delivered, when the workers ask for them.
    package var acknowledgedOffsets: KafkaAcknowledgedOffsets?
    /// Asked before each send when the workers keep state a stalled copy must not overwrite:
    /// while it fences, their outputs wait.
    package var fence: GroupMembershipFence?
    /// How long a record may wait for its acknowledgement (`message.timeout.ms`); librdkafka's
    /// 300 s when nil.
    package var producerDeliveryTimeout: Duration?
    package var metricsInterval: Duration = .seconds(10)
    /// How long a shutdown or rebalance waits for messages being handled.
    package var drainTimeout: Duration = .seconds(30)
    package var maxBufferedPerPartition = 50_000
    package var maxBufferedBytesPerPartition = 32 << 20
    package var maxBufferedBytesTotal = 256 << 20
    /// How long to wait for the brokers to answer at start.
    package var connectTimeout: Duration = .seconds(10)

    package init(client: KafkaClientConfiguration, concurrency: Int) {
        self.client = client
        self.concurrency = concurrency
    }
}
