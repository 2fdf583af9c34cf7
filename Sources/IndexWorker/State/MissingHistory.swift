import Foundation
import KafkaClient
import PipelineContract

/// Messages an input partition no longer holds although the index state needs them: the
/// broker deleted them (retention, or a topic that was not compacted), so a rebuild from Kafka
/// would silently lose their pages. The index is not published while any is known, and each is
/// kept in `DIR/.index-state/<topic>-<partition>.history-missing` for `artpipe status`.
package struct MissingHistory: Sendable, Equatable, Codable, CustomStringConvertible {
    let topic: String
    let partition: Int32
    /// The first offset the state has not applied.
    let needed: Int64
    /// The oldest offset the partition still holds, past `needed`.
    let earliest: Int64

    package init(topic: String, partition: Int32, needed: Int64, earliest: Int64) {
        self.topic = topic
        self.partition = partition
        self.needed = needed
        self.earliest = earliest
    }

    package var description: String {
        "\(topic)[\(partition)] no longer holds offsets \(needed)–\(earliest - 1), which the index needs: "
            + "their pages were deleted by the broker (retention)"
    }

    /// The topics whose history the index needs: the pages stage's state is built from them.
    /// The dead letters are not among them: their retention loses only failures.
    package static let stateTopics = [ArtpipeTopic.pages, ArtpipeTopic.thumbnails]

    /// The gap in `topicPartition` for a reader that stands at `committed` (none: it has read
    /// nothing) while the partition holds nothing older than `earliest`; nil when there is none,
    /// or the topic holds no state.
    package static func gap(in topicPartition: KafkaTopicPartition, committed: Int64?, earliest: Int64?)
        -> MissingHistory?
    {
        guard stateTopics.contains(topicPartition.topic), let earliest, earliest > (committed ?? 0) else { return nil }
        return MissingHistory(
            topic: topicPartition.topic, partition: topicPartition.partition, needed: committed ?? 0,
            earliest: earliest)
    }

    /// The gaps `artpipe status` sees from outside: `inputs`, the index group's positions on
    /// ``stateTopics``; `changelog`, its positions on `artpipe.index-pages`. A partition whose
    /// changelog holds nothing is read from the start (the worker ignores the committed offset
    /// then, ``KafkaConsumerConfiguration/changelog``), so it needs everything.
    package static func gaps(in inputs: [KafkaOffsetResetPlan.Row], changelog: [KafkaOffsetResetPlan.Row])
        -> [MissingHistory]
    {
        let stateHeld = Set(changelog.filter { $0.high > $0.low }.map(\.topicPartition.partition))
        return inputs.compactMap { row in
            gap(
                in: row.topicPartition,
                committed: stateHeld.contains(row.topicPartition.partition) ? row.committed : nil,
                earliest: row.low)
        }.sorted { ($0.topic, $0.partition) < ($1.topic, $1.partition) }
    }

    static let fileSuffix = ".history-missing"

    static func fileName(_ topicPartition: KafkaTopicPartition) -> String {
        "\(topicPartition.topic)-\(topicPartition.partition)\(fileSuffix)"
    }
}
