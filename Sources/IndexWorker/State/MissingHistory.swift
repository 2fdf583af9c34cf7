import Foundation
import KafkaClient

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

    static let fileSuffix = ".history-missing"

    static func fileName(_ topicPartition: KafkaTopicPartition) -> String {
        "\(topicPartition.topic)-\(topicPartition.partition)\(fileSuffix)"
    }

    /// Every gap an index instance recorded under `DIR/.index-state/`, oldest partition first.
    package static func recorded(in outputDirectory: URL) -> [MissingHistory] {
        recorded(inState: outputDirectory.appendingPathComponent(IndexStateStore.folderName))
    }

    /// The gaps recorded in an index worker's `--state` directory.
    package static func recorded(inState directory: URL) -> [MissingHistory] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(fileSuffix) }.sorted().compactMap { name in
            (try? Data(contentsOf: directory.appendingPathComponent(name))).flatMap {
                try? JSONDecoder().decode(MissingHistory.self, from: $0)
            }
        }
    }
}
