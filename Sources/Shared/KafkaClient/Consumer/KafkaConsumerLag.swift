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
        guard let root = try? JSONSerialization.jsonObject(with: Data(statisticsJSON.utf8)) as? [String: Any],
            let topics = root["topics"] as? [String: Any]
        else { return nil }
        var lag: [KafkaTopicPartition: Int64] = [:]
        for (topic, value) in topics {
            guard let partitions = (value as? [String: Any])?["partitions"] as? [String: Any] else { continue }
            for (key, value) in partitions {
                guard let partition = Int32(key), partition >= 0,
                    let fields = value as? [String: Any],
                    let consumerLag = (fields["consumer_lag"] as? NSNumber)?.int64Value, consumerLag >= 0
                else { continue }
                lag[KafkaTopicPartition(topic: topic, partition: partition)] = consumerLag
            }
        }
        self.partitions = lag
    }
}
