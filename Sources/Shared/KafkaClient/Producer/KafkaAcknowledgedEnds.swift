import Synchronization

/// How far the broker acknowledged the records a process produced to some topics: for each
/// partition, the offset after the highest one it gave back. A process that must wait for a
/// reader to pass the records it wrote can look here instead of asking the broker where the
/// partition ends (a ListOffsets request, about 100 ms on Tansu at ten million works). Recorded
/// before the sender hears the acknowledgement, so a record acknowledged is already counted.
package final class KafkaAcknowledgedEnds: Sendable {
    /// The topics followed: the others' acknowledgements are not counted.
    package let topics: Set<String>
    private let ends = Mutex<[String: [Int32: Int64]]>([:])

    package init(topics: Set<String>) {
        self.topics = topics
    }

    /// Counts a record of `topic` acknowledged at `offset` of `partition`.
    func acknowledged(topic: String, partition: Int32, offset: Int64) {
        guard offset >= 0, topics.contains(topic) else { return }
        ends.withLock { ends in
            if offset + 1 > ends[topic]?[partition] ?? 0 { ends[topic, default: [:]][partition] = offset + 1 }
        }
    }

    /// The offset after the last record acknowledged in each of `topic`'s first `partitions`
    /// partitions, in partition order; 0 where none was.
    package func ends(of topic: String, partitions: Int) -> [Int64] {
        let known = ends.withLock { $0[topic] ?? [:] }
        return (0..<partitions).map { known[Int32($0)] ?? 0 }
    }
}
