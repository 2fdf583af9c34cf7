import Foundation

/// Consumer lag per assigned partition, from librdkafka's statistics.
package struct KafkaConsumerLag: Sendable {
    package let partitions: [KafkaTopicPartition: Int64]

    /// Sum over partitions whose lag is known.
    package var total: Int64 { partitions.values.reduce(0, +) }

    package init(partitions: [KafkaTopicPartition: Int64]) {
        self.partitions = partitions
    }

    /// Reads the `topics.*.partitions.*.consumer_lag` fields of a statistics document.
    /// Partitions with unknown lag (-1) and the internal partition -1 are left out.
    init?(statisticsJSON: String) {
        guard let partitions = KafkaStatistics.partitions(statisticsJSON) else { return nil }
        var lag: [KafkaTopicPartition: Int64] = [:]
        for (topicPartition, fields) in partitions {
            guard let consumerLag = (fields["consumer_lag"] as? NSNumber)?.int64Value, consumerLag >= 0 else {
                continue
            }
            lag[topicPartition] = consumerLag
        }
        self.partitions = lag
    }
}
