import Foundation

/// Consumer lag per assigned partition, from librdkafka's statistics.
package struct KafkaConsumerLag: Sendable {
    package let partitions: [KafkaTopicPartition: Int64]

    /// Sum over partitions whose lag is known.
    package var total: Int64 { partitions.values.reduce(0, +) }

    package init(partitions: [KafkaTopicPartition: Int64]) {
        self.partitions = partitions
    }

    /// The `consumer_lag` of each partition in `statistics`; unknown ones (-1) are left out.
    init(statistics: KafkaStatistics) {
        var lag: [KafkaTopicPartition: Int64] = [:]
        for (topicPartition, fields) in statistics.partitions {
            guard let consumerLag = (fields["consumer_lag"] as? NSNumber)?.int64Value, consumerLag >= 0 else {
                continue
            }
            lag[topicPartition] = consumerLag
        }
        self.partitions = lag
    }
}
