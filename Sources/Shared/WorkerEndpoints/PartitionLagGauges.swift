import KafkaClient
import Prometheus
import Synchronization

/// `artpipe_consumer_partition_lag{topic, partition}`: one gauge per assigned partition,
/// removed when the partition goes to another member.
final class PartitionLagGauges: Sendable {
    private let registry: PrometheusCollectorRegistry
    private let gauges = Mutex<[KafkaTopicPartition: Gauge]>([:])

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    /// - Parameter lags: every consumer's of the process (the index's three groups read
    ///   topics of their own).
    func update(_ lags: [KafkaConsumerLag?]) {
        let partitions = lags.reduce(into: [KafkaTopicPartition: Int64]()) { all, lag in
            all.merge(lag?.partitions ?? [:]) { first, _ in first }
        }
        gauges.withLock { gauges in
            for (topicPartition, gauge) in gauges where partitions[topicPartition] == nil {
                registry.unregisterGauge(gauge)
                gauges[topicPartition] = nil
            }
            for (topicPartition, value) in partitions {
                let gauge =
                    gauges[topicPartition]
                    ?? registry.makeGauge(
                        name: "artpipe_consumer_partition_lag",
                        labels: [("topic", topicPartition.topic), ("partition", String(topicPartition.partition))],
                        help: "Messages after the committed offset, per assigned partition (librdkafka statistics)")
                gauges[topicPartition] = gauge
                gauge.set(Double(value))
            }
        }
    }
}
