/// The partitions librdkafka is not fetching, with the state each is in instead: a partition
/// that has no lag to show (it never delivered) and is not "active" is stuck before its first
/// fetch, which lag alone cannot tell from an empty one.
package struct KafkaFetchStates: Sendable, Equatable {
    package let notFetching: [KafkaTopicPartition: String]

    package init(notFetching: [KafkaTopicPartition: String]) {
        self.notFetching = notFetching
    }

    /// The `fetch_state` of the partitions `held` in `statistics` (librdkafka reports others
    /// it only knows of) that are not "active".
    init(statistics: KafkaStatistics, held: Set<KafkaTopicPartition>) {
        var states: [KafkaTopicPartition: String] = [:]
        for (topicPartition, fields) in statistics.partitions where held.contains(topicPartition) {
            guard let state = fields["fetch_state"] as? String, state != "active" else { continue }
            states[topicPartition] = state
        }
        notFetching = states
    }
}
