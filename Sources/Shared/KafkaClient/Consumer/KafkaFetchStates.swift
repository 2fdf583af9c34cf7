import Foundation

/// The partitions librdkafka is not fetching, with the state each is in instead: a partition
/// that has no lag to show (it never delivered) and is not "active" is stuck before its first
/// fetch, which lag alone cannot tell from an empty one.
package struct KafkaFetchStates: Sendable, Equatable {
    package let notFetching: [KafkaTopicPartition: String]

    package init(notFetching: [KafkaTopicPartition: String]) {
        self.notFetching = notFetching
    }

    /// Reads `topics.*.partitions.*.fetch_state` of a statistics document, keeping the
    /// partitions `held` (librdkafka reports others it only knows of) that are not "active".
    init?(statisticsJSON: String, held: Set<KafkaTopicPartition>) {
        guard let root = try? JSONSerialization.jsonObject(with: Data(statisticsJSON.utf8)) as? [String: Any],
            let topics = root["topics"] as? [String: Any]
        else { return nil }
        var states: [KafkaTopicPartition: String] = [:]
        for (topic, value) in topics {
            guard let partitions = (value as? [String: Any])?["partitions"] as? [String: Any] else { continue }
            for (key, value) in partitions {
                guard let partition = Int32(key), let fields = value as? [String: Any],
                    let state = fields["fetch_state"] as? String, state != "active"
                else { continue }
                let topicPartition = KafkaTopicPartition(topic: topic, partition: partition)
                if held.contains(topicPartition) { states[topicPartition] = state }
            }
        }
        notFetching = states
    }
}
