import KafkaClient
import Synchronization

/// Which partitions of one stage this copy holds, and how far each has read since it was
/// assigned (``PartitionReadiness``): a partition may publish, or be summarised, only once
/// every topic it reads is read to where it stood at the assignment. Fed from the consumer's
/// assignment callbacks and from the handler; read by the publisher.
package final class StageProgress: Sendable {
    private struct Held {
        var readiness: PartitionReadiness
        /// Bumped at every assignment, so work begun under an older one is told apart.
        var generation: Int
        /// By topic, the offset its group may commit (one past the last message done with) under
        /// this assignment: from where the consumer started, what was before it not there to do.
        var settled: [String: Int64] = [:]
    }

    private let partitions = Mutex<[Int: Held]>([:])
    /// Per partition, the group's committed offset when it was last assigned.
    private let committed = Mutex<[Int: Int64]>([:])
    /// Where the consumer starts reading each partition being assigned: read up to there already.
    private let starts = Mutex<[KafkaTopicPartition: Int64]>([:])
    /// The newest assignment's number; bumped under `partitions`' lock, so a picture of the
    /// partitions held (``assignments``) knows every assignment it shows and no later one.
    private let generations = Atomic<Int>(0)
    /// Set whenever a message is read, cleared by ``takeMoved()``: wakes the publisher.
    private let moved = Atomic<Bool>(false)

    /// An end offset the broker did not give: never reached, so the partition waits.
    static let unknownEnd: Int64 = 1 << 50

    package init() {}

    /// Partitions assigned, with each topic's end offset then (an unknown one counts as not read).
    package func assigned(_ partitions: [(KafkaTopicPartition, endOffset: Int64?)]) {
        let byPartition = Dictionary(grouping: partitions, by: { Int($0.0.partition) })
        self.partitions.withLock { held in
            let generation = generations.wrappingAdd(1, ordering: .relaxed).newValue
            for (partition, topics) in byPartition {
                var targets = held[partition]?.readiness.targets ?? [:]
                for (topicPartition, end) in topics { targets[topicPartition.topic] = end ?? Self.unknownEnd }
                var readiness = PartitionReadiness(endOffsets: targets)
                var settled: [String: Int64] = [:]
                for (topicPartition, _) in topics {
                    if let start = starts.withLock({ $0.removeValue(forKey: topicPartition) }) {
                        readiness.advance(topicPartition.topic, to: start)
                        // An empty partition, or one compacted to nothing, has no message to finish.
                        settled[topicPartition.topic] = start
                    }
                }
                held[partition] = Held(readiness: readiness, generation: generation, settled: settled)
            }
        }
    }

    /// Where the consumer starts reading a partition being assigned: `start` when the stage
    /// chose it, else the group's committed offset, else the oldest the partition holds.
    /// Returns `start`, for ``KafkaConsumerConfiguration/startOffset``.
    package func starting(
        _ topicPartition: KafkaTopicPartition, committed offset: Int64?, earliest: Int64?, at start: Int64? = nil
    ) -> Int64? {
        let position = start == KafkaConsumerConfiguration.beginningOffset ? earliest : start ?? offset ?? earliest
        starts.withLock { $0[topicPartition] = position ?? 0 }
        committed.withLock { $0[Int(topicPartition.partition)] = offset ?? 0 }
        return start
    }

    /// Whether `offset` of `partition` was handled before its assignment: at or past the
    /// group's committed offset then is new.
    package func handledBefore(_ offset: Int64, partition: Int) -> Bool {
        offset < committed.withLock { $0[partition] ?? 0 }
    }

    /// Adds a topic this stage reads for `partition` besides its inputs (a changelog restored
    /// apart from the consumer), to be read to `endOffset`.
    package func expect(_ topic: String, partition: Int, endOffset: Int64) {
        partitions.withLock { held in
            guard var entry = held[partition] else { return }
            var targets = entry.readiness.targets
            targets[topic] = endOffset
            var readiness = PartitionReadiness(endOffsets: targets)
            for (name, position) in entry.readiness.positions { readiness.advance(name, to: position) }
            entry.readiness = readiness
            held[partition] = entry
        }
    }

    /// `topic`'s partition is read up to `position` (one past the last offset handled).
    package func read(_ topic: String, partition: Int, upTo position: Int64) {
        partitions.withLock { $0[partition]?.readiness.advance(topic, to: position) }
        moved.store(true, ordering: .releasing)
    }

    /// The messages of `topic`'s partition up to `position` (one past the last) are done with,
    /// as the offset its group may commit says (``MessageHandler/finished(_:)``).
    package func settled(_ topic: String, partition: Int, upTo position: Int64) {
        partitions.withLock { held in
            guard var entry = held[partition] else { return }
            entry.settled[topic] = max(entry.settled[topic] ?? position, position)
            held[partition] = entry
        }
    }

    /// Whether this copy holds every partition of `topic` that `ends` names (one end each, by
    /// partition) and has settled each up to its end (``settled(_:partition:upTo:)``) under the
    /// assignment it holds it by: what the group's committed offsets would say once it commits.
    package func hasSettled(_ topic: String, _ ends: [Int64]) -> Bool {
        partitions.withLock { held in
            ends.enumerated().allSatisfy { partition, end in (held[partition]?.settled[topic] ?? -1) >= end }
        }
    }

    /// Whether any message was read since the last call.
    package func takeMoved() -> Bool {
        moved.exchange(false, ordering: .acquiringAndReleasing)
    }

    /// How far `topic`'s partition is read under the current assignment, or only under the
    /// assignment `generation` when given.
    package func position(of topic: String, partition: Int, under generation: Int? = nil) -> Int64? {
        partitions.withLock { held in
            guard let entry = held[partition], generation == nil || entry.generation == generation else { return nil }
            return entry.readiness.positions[topic]
        }
    }

    /// Whether `partition` is held now under the assignment `generation`: asked right before a
    /// write made from a picture taken earlier, so that a partition revoked since is not written.
    package func holds(_ partition: Int, under generation: Int) -> Bool {
        partitions.withLock { $0[partition]?.generation == generation }
    }

    package func revoked(_ partitions: [KafkaTopicPartition]) {
        let numbers = Set(partitions.map { Int($0.partition) })
        self.partitions.withLock { held in for partition in numbers { held[partition] = nil } }
    }

    /// The partitions held now, each with the assignment it is held under.
    package var held: [Int: Int] { assignments.held }

    /// ``held``, with the newest assignment made by then.
    package var assignments: StageAssignments {
        partitions.withLock {
            StageAssignments(held: $0.mapValues(\.generation), latest: generations.load(ordering: .relaxed))
        }
    }

    /// The partitions held and read to where they stood at their assignment.
    package var ready: Set<Int> {
        partitions.withLock { Set($0.filter { $0.value.readiness.isReady }.keys) }
    }

    /// Messages left to read before every partition held is ready.
    package var remaining: Int64 { partitions.withLock { $0.values.map(\.readiness.remaining).reduce(0, +) } }

    /// Follows `consumer`'s assignments: where each partition starts (`start`, or the group's
    /// committed offset when nil), its end offsets when assigned, and its revocation.
    /// `assigned` runs after the partitions are recorded (a restore to start).
    ///
    /// The consumer commits every 100 ms unless `--kafka` says otherwise: the stages' committed
    /// offsets are how the copy assembling the shared files learns that rows went through the
    /// stages on any copy (``AssemblyTarget``), so they bound how soon a new page is published.
    /// (Kafka Streams commits as often under exactly-once.)
    package func follow(
        _ consumer: inout KafkaConsumerConfiguration, startingAt start: Int64? = nil,
        assigned: (@Sendable ([Int]) -> Void)? = nil
    ) {
        if consumer.client.properties["auto.commit.interval.ms"] == nil {
            consumer.client.properties["auto.commit.interval.ms"] = "100"
        }
        consumer.startOffset = { [self] in starting($0, committed: $1, earliest: $2, at: start) }
        consumer.onAssign = { [self] partitions in
            self.assigned(partitions)
            assigned?(Set(partitions.map { Int($0.0.partition) }).sorted())
        }
        consumer.onRevoke = { [self] revoked, _ in self.revoked(revoked) }
    }

    /// `decode` of `message`; a message it cannot read counts as read (it goes to the dead letters).
    package func decoding<Input>(_ message: KafkaConsumerMessage, _ decode: (KafkaConsumerMessage) throws -> Input)
        throws -> Input
    {
        do {
            return try decode(message)
        } catch {
            read(message.topic, partition: Int(message.partition), upTo: message.offset + 1)
            throw error
        }
    }
}
