import Foundation

/// The partitions of a librdkafka statistics document (`topics.*.partitions.*`), each with
/// its fields: what the lag and the fetch states are read from.
enum KafkaStatistics {
    /// Each partition's fields, the internal partition -1 left out; nil when the document
    /// cannot be read.
    static func partitions(_ json: String) -> [(KafkaTopicPartition, [String: Any])]? {
        guard let root = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let topics = root["topics"] as? [String: Any]
        else { return nil }
        var found: [(KafkaTopicPartition, [String: Any])] = []
        for (topic, value) in topics {
            guard let partitions = (value as? [String: Any])?["partitions"] as? [String: Any] else { continue }
            for (key, value) in partitions {
                guard let partition = Int32(key), partition >= 0, let fields = value as? [String: Any] else { continue }
                found.append((KafkaTopicPartition(topic: topic, partition: partition), fields))
            }
        }
        return found
    }
}
