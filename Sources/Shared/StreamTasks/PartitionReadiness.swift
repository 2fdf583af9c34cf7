/// When a partition the index worker was given may publish: once every topic it reads for it,
/// its changelog and its inputs, has been read up to the end offset that topic had when the
/// partition was assigned (Kafka Streams' restoration to the changelog's end offset, then the
/// inputs as they stood). Until then what it holds may be less than what its last owner
/// published, and publishing it could show a smaller index.
package struct PartitionReadiness: Sendable, Equatable {
    /// Per topic: the end offset at the assignment (the next offset to be written then).
    package private(set) var targets: [String: Int64]
    /// Per topic: the next offset to read (a position, so compacted gaps count as read).
    package private(set) var positions: [String: Int64] = [:]

    /// - Parameter endOffsets: each topic's end offset for the partition at its assignment.
    package init(endOffsets: [String: Int64]) {
        targets = endOffsets
    }

    /// The consumer's position in `topic` moved to `position` (one past the last offset read).
    package mutating func advance(_ topic: String, to position: Int64) {
        positions[topic] = max(positions[topic] ?? position, position)
    }

    /// Every topic read to where it stood at the assignment; an empty topic is read at once.
    package var isReady: Bool {
        targets.allSatisfy { topic, end in end <= 0 || (positions[topic] ?? 0) >= end }
    }

    /// How much is left to read, for `/readyz` and the logs.
    package var remaining: Int64 {
        targets.reduce(0) { total, target in total + max(0, target.value - (positions[target.key] ?? 0)) }
    }
}
