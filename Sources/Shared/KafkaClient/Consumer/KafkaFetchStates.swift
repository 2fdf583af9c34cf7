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
        guard let partitions = KafkaStatistics.partitions(statisticsJSON) else { return nil }
        var states: [KafkaTopicPartition: String] = [:]
        for (topicPartition, fields) in partitions where held.contains(topicPartition) {
            guard let state = fields["fetch_state"] as? String, state != "active" else { continue }
            states[topicPartition] = state
        }
        notFetching = states
    }
}
