import Foundation

/// One librdkafka statistics document, parsed once for everything read from it: the lag, the
/// fetch states, the brokers up.
struct KafkaStatistics {
    /// Each partition's fields (`topics.*.partitions.*`), the internal partition -1 left out.
    let partitions: [(KafkaTopicPartition, [String: Any])]
    /// Each broker's fields (`brokers.*`); nil when the document has none.
    let brokers: [[String: Any]]?

    /// Nil when `json` is not a statistics document.
    init?(json: String) {
        guard let root = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            return nil
        }
        var found: [(KafkaTopicPartition, [String: Any])] = []
        for (topic, value) in root["topics"] as? [String: Any] ?? [:] {
            guard let partitions = (value as? [String: Any])?["partitions"] as? [String: Any] else { continue }
            for (key, value) in partitions {
                guard let partition = Int32(key), partition >= 0, let fields = value as? [String: Any] else { continue }
                found.append((KafkaTopicPartition(topic: topic, partition: partition), fields))
            }
        }
        partitions = found
        brokers = (root["brokers"] as? [String: Any])?.values.compactMap { $0 as? [String: Any] }
    }
}
