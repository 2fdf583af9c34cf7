import Foundation
import KafkaClient
import Logging
import Synchronization

/// Which partitions of one stage this copy holds, each a ``StagePartition`` (its epoch, its
/// state, how far it has read since it was assigned), and the restores of their store
/// (``ChangelogRestorer``): a partition may be handled once restored, and may publish, or be
/// summarised, once every topic it reads is read to where it stood at the assignment. Fed from
/// the consumer's assignment callbacks and from the handler; read by the publisher.
package final class StageProgress: Sendable {
    /// How a stage's store is restored at each assignment (Kafka Streams' changelog).
    package struct Restore: Sendable {
        package enum Changelog: Sendable, Equatable {
            /// A changelog of the stage's own (`topic`), read to its end.
            case own(String)
            /// The stage's input `topic` is its changelog: read up to the group's committed offset
            /// on it, where the consumer then starts. Nothing the group committed is handled
            /// again, and nothing is committed below it.
            case input(String)
        }

        package let changelog: Changelog
        package let store: any RestorableStore
        package let restorer: ChangelogRestorer

        package init(_ changelog: Changelog, store: any RestorableStore, restorer: ChangelogRestorer) {
            (self.changelog, self.store, self.restorer) = (changelog, store, restorer)
        }

        var topic: String {
            switch changelog {
            case .own(let topic), .input(let topic): topic
            }
        }
    }

    private struct State {
        var partitions: [Int: StagePartition] = [:]
        /// Per partition of the input that is the changelog, the group's committed offset when it
        /// was last assigned: where its restore ends and its consumer starts.
        var committed: [Int: Int64] = [:]
        /// Per partition of the input that is the changelog, one past the last offset its restore
        /// read: a message below it is in the restored state already.
        var restoredTo: [Int: Int64] = [:]
        /// Where the consumer starts reading each partition being assigned: read up to there already.
        var starts: [KafkaTopicPartition: Int64] = [:]
        /// When each partition was last revoked (or lost).
        var revokedAt: [Int: Date] = [:]
    }

    private let state = Mutex(State())
    /// The newest assignment's epoch; bumped under `state`'s lock, so a picture of the
    /// partitions held (``assignments``) knows every assignment it shows and no later one.
    private let epochs = Atomic<Int>(0)
    /// Set whenever a message is read, cleared by ``takeMoved()``: wakes the publisher.
    private let moved = Atomic<Bool>(false)
    private let restore: Restore?

    /// An end offset the broker did not give: never reached, so the partition waits.
    static let unknownEnd: Int64 = 1 << 50

    /// - Parameter restore: how the stage's store is restored at each assignment; nil: it has none.
    package init(restore: Restore? = nil) {
        self.restore = restore
    }

    /// Partitions assigned, with each topic's end offset then (an unknown one counts as not
    /// read): each held under a new epoch, restoring; their restore is begun.
    package func assigned(_ partitions: [(KafkaTopicPartition, endOffset: Int64?)]) {
        let byPartition = Dictionary(grouping: partitions, by: { Int($0.0.partition) })
        state.withLock { state in
            let epoch = AssignmentEpoch(epochs.wrappingAdd(1, ordering: .relaxed).newValue)
            for (partition, topics) in byPartition {
                var targets = state.partitions[partition]?.readiness.targets ?? [:]
                for (topicPartition, end) in topics { targets[topicPartition.topic] = end ?? Self.unknownEnd }
                var readiness = PartitionReadiness(endOffsets: targets)
                var settled: [String: Int64] = [:]
                for (topicPartition, _) in topics {
                    if let start = state.starts.removeValue(forKey: topicPartition) {
                        readiness.advance(topicPartition.topic, to: start)
                        // An empty partition, or one compacted to nothing, has no message to finish.
                        settled[topicPartition.topic] = start
                    }
                }
                // Held again: it follows its changelog until its next revoke.
                state.revokedAt[partition] = nil
                var entry = StagePartition(epoch: epoch, readiness: readiness, settled: settled)
                if restore == nil { entry.restored() }
                state.partitions[partition] = entry
            }
            // Under the same lock: whoever waits on a partition finds its restore.
            beginRestore(of: byPartition.mapValues { _ in epoch }, in: &state)
        }
    }

    /// Begins one restore of `partitions`, each under its epoch, unless the stage keeps no
    /// store. Called under the lock, so one restore at a time runs for an epoch. A restore that
    /// fails holds its partitions (``StagePartition/State/held(reason:)``) and is begun again
    /// after a pause (1 s, doubling to 30 s), for those still held under their epoch, until one
    /// succeeds: a handler waits for it rather than fail its message.
    private func beginRestore(of partitions: [Int: AssignmentEpoch], in state: inout State) {
        guard let restore, !partitions.isEmpty else { return }
        for partition in partitions.keys { state.restoredTo[partition] = nil }
        // An own changelog is read to its end; an input up to the group's committed offset.
        var bounds: [Int: Int64] = [:]
        if case .input = restore.changelog {
            for partition in partitions.keys { bounds[partition] = state.committed[partition] ?? 0 }
        }
        // Made under the lock, with the partitions it restores; it runs after.
        Task { [self] in
            var failures = 0
            while true {
                let current = stillHeld(partitions)
                guard !current.isEmpty else { return }
                do {
                    try await restoreOnce(current, bounds: bounds, restore: restore)
                    return
                } catch {
                    failures += 1
                    let pause = Duration.seconds(min(1 << min(failures - 1, 5), 30))
                    self.state.withLock { state in
                        for (partition, epoch) in current where state.partitions[partition]?.epoch == epoch {
                            state.partitions[partition]?.restoreFailed("\(error)")
                        }
                    }
                    restore.restorer.logger.warning(
                        "partitions held: their restore failed; restoring them again after a pause",
                        metadata: [
                            "kafka.topic": "\(restore.topic)", "kafka.partitions": "\(current.keys.sorted())",
                            "error": "\(error)", "attempts": "\(failures)", "pause": "\(pause)",
                        ])
                    // Cancelled (never, today): no more tries, rather than tries without a pause.
                    guard (try? await Task.sleep(for: pause)) != nil else { return }
                    self.state.withLock { state in
                        for (partition, epoch) in current where state.partitions[partition]?.epoch == epoch {
                            state.partitions[partition]?.restoring()
                        }
                    }
                }
            }
        }
    }

    /// One restore of `partitions`: each store partition begun anew, the changelog read, each
    /// partition still held under its epoch then restored.
    private func restoreOnce(_ partitions: [Int: AssignmentEpoch], bounds: [Int: Int64], restore: Restore)
        async throws
    {
        var restores: [Int: any PartitionRestore] = [:]
        for (partition, epoch) in partitions.sorted(by: { $0.key < $1.key }) {
            do {
                restores[partition] = try await restore.store.beginRestore(of: partition, under: epoch)
            } catch is AssignmentEnded {
                // A newer assignment's restore began first: it restores the partition.
                continue
            }
        }
        let ends = try await restore.restorer.restore(restore.topic, into: restores, upTo: bounds) {
            [self] partition in partitions[partition].map { holds(partition, under: $0) } ?? false
        }
        state.withLock { state in
            for (partition, epoch) in partitions where state.partitions[partition]?.epoch == epoch {
                if case .input = restore.changelog { state.restoredTo[partition] = ends[partition] ?? 0 }
                state.partitions[partition]?.restored()
            }
        }
        moved.store(true, ordering: .releasing)
    }

    /// Those of `partitions` held now under the epoch given.
    private func stillHeld(_ partitions: [Int: AssignmentEpoch]) -> [Int: AssignmentEpoch] {
        state.withLock { state in partitions.filter { state.partitions[$0.key]?.epoch == $0.value } }
    }

    /// Waits until `partition`'s store is restored under the assignment it is held by when
    /// asked, and returns that assignment; nil when it is not held, or no longer under that
    /// assignment (revoked, perhaps given to this copy again: what is handled of the earlier one
    /// is nobody's), or once `active` (the message's lease) says no, or the task is cancelled.
    /// Looks every 10 ms: a partition's restore takes seconds, and its other partitions' restore
    /// may go on after it.
    package func restored(_ partition: Int, while active: () -> Bool = { true }) async -> AssignmentEpoch? {
        guard let epoch = state.withLock({ $0.partitions[partition]?.epoch }) else { return nil }
        while true {
            let restored: Bool? = state.withLock { state in
                guard let entry = state.partitions[partition], entry.epoch == epoch else { return false }
                return entry.isRestored ? true : nil
            }
            if let restored { return restored ? epoch : nil }
            guard active(), !Task.isCancelled else { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// ``restored(_:while:)`` for a message handled under `lease`: its assignment, once
    /// restored. Throws ``PartitionGone`` when the partition goes, or the lease ends, first:
    /// nothing of the message is written then, and the runtime, finding the lease ended, commits
    /// nothing for it (its next owner handles it). The runtime calls a handler only under an
    /// active lease, at each attempt, so the epoch first seen is the lease's.
    package func epoch(of partition: Int, under lease: KafkaPartitionLease?) async throws -> AssignmentEpoch {
        // The lease asked after too: a message of a lease that ended before this partition was
        // assigned again would otherwise be handled under the new assignment.
        guard let epoch = await restored(partition, while: { lease?.isActive ?? true }), lease?.isActive ?? true else {
            throw PartitionGone(partition)
        }
        return epoch
    }

    /// Whether `offset` of `partition` is in its restored state already: below where the
    /// restore of a stage whose input is its changelog read to. Such a message (the consumer
    /// moved below the committed offset: a held assignment's start, or an offset out of range)
    /// is not handled again.
    package func wasRestored(_ offset: Int64, partition: Int) -> Bool {
        offset < state.withLock { $0.restoredTo[partition] ?? 0 }
    }

    /// What each partition held waits for, when its restore failed: for `/healthz`.
    package var heldReasons: [Int: String] {
        state.withLock { state in
            state.partitions.compactMapValues { entry in
                if case .held(let reason) = entry.state { return reason }
                return nil
            }
        }
    }

    /// Each partition held, in its state.
    package var states: [Int: StagePartition.State] {
        state.withLock { $0.partitions.mapValues(\.state) }
    }

    /// Where the consumer starts reading a partition being assigned: `start` when the stage
    /// chose it, else the group's committed offset, else the oldest the partition holds.
    /// Returns `start`, for ``KafkaConsumerConfiguration/startOffset``.
    package func starting(
        _ topicPartition: KafkaTopicPartition, committed offset: Int64?, earliest: Int64?, at start: Int64? = nil
    ) -> Int64? {
        var start = start
        if case .input(let topic) = restore?.changelog, topic == topicPartition.topic {
            // Restored up to the group's committed offset, and read from there.
            start = offset ?? KafkaConsumerConfiguration.beginningOffset
        }
        let position = start == KafkaConsumerConfiguration.beginningOffset ? earliest : start ?? offset ?? earliest
        state.withLock { state in
            state.starts[topicPartition] = position ?? 0
            if case .input(let topic) = restore?.changelog, topic == topicPartition.topic {
                state.committed[Int(topicPartition.partition)] = offset ?? 0
            }
        }
        return start
    }

    /// `topic`'s partition is read up to `position` (one past the last offset handled), under
    /// the assignment `epoch` when given (a message of an earlier one moves nothing).
    package func read(_ topic: String, partition: Int, upTo position: Int64, under epoch: AssignmentEpoch? = nil) {
        state.withLock { state in
            guard epoch == nil || state.partitions[partition]?.epoch == epoch else { return }
            state.partitions[partition]?.read(topic, upTo: position)
        }
        moved.store(true, ordering: .releasing)
    }

    /// The messages of `topic`'s partition up to `position` (one past the last) are done with,
    /// as the offset its group may commit says (``MessageHandler/finished(_:)``).
    package func settled(_ topic: String, partition: Int, upTo position: Int64) {
        state.withLock { $0.partitions[partition]?.settle(topic, upTo: position) }
    }

    /// Whether this copy holds every partition of `topic` that `ends` names (one end each, by
    /// partition) and has settled each up to its end (``settled(_:partition:upTo:)``) under the
    /// assignment it holds it by: what the group's committed offsets would say once it commits.
    package func hasSettled(_ topic: String, _ ends: [Int64]) -> Bool {
        state.withLock { state in
            ends.enumerated().allSatisfy { partition, end in
                (state.partitions[partition]?.settled[topic] ?? -1) >= end
            }
        }
    }

    /// Whether any message was read since the last call.
    package func takeMoved() -> Bool {
        moved.exchange(false, ordering: .acquiringAndReleasing)
    }

    /// How far `topic`'s partition is read under the current assignment, or only under the
    /// assignment `epoch` when given.
    package func position(of topic: String, partition: Int, under epoch: AssignmentEpoch? = nil) -> Int64? {
        state.withLock { state in
            guard let entry = state.partitions[partition], epoch == nil || entry.epoch == epoch else { return nil }
            return entry.readiness.positions[topic]
        }
    }

    /// Whether `partition` is held now under the assignment `epoch`: asked right before a write
    /// made from a picture taken earlier, so that a partition revoked since is not written.
    package func holds(_ partition: Int, under epoch: AssignmentEpoch) -> Bool {
        state.withLock { $0.partitions[partition]?.epoch == epoch }
    }

    /// The partitions are revoked (or lost): dropped, with their restores (one still running
    /// hands them no more rows, and begins them no more).
    package func revoked(_ partitions: [KafkaTopicPartition]) {
        let numbers = Set(partitions.map { Int($0.partition) })
        let now = Date()
        state.withLock { state in
            for partition in numbers {
                state.partitions[partition] = nil
                state.restoredTo[partition] = nil
                state.revokedAt[partition] = now
            }
        }
    }

    /// When `partition` was last revoked (or lost); nil if it never was, or is held again: what
    /// its store shows followed its changelog until then.
    package func revokedAt(_ partition: Int) -> Date? {
        state.withLock { $0.revokedAt[partition] }
    }

    /// The partitions held now, each with the assignment it is held under.
    package var held: [Int: AssignmentEpoch] { assignments.held }

    /// ``held``, with the newest assignment made by then.
    package var assignments: StageAssignments {
        state.withLock {
            StageAssignments(
                held: $0.partitions.mapValues(\.epoch), latest: AssignmentEpoch(epochs.load(ordering: .relaxed)))
        }
    }

    /// The partitions held, restored and read to where they stood at their assignment.
    package var ready: Set<Int> {
        state.withLock { Set($0.partitions.filter(\.value.isReady).keys) }
    }

    /// Messages left to read before every partition held is ready.
    package var remaining: Int64 {
        state.withLock { $0.partitions.values.map(\.readiness.remaining).reduce(0, +) }
    }

    /// Follows `consumer`'s assignments: where each partition starts (`start`; the group's
    /// committed offset when nil, or when the stage's input is its changelog), its end offsets
    /// when assigned (each partition then restoring), and its revocation.
    ///
    /// The consumer commits every 100 ms unless `--kafka` says otherwise: the stages' committed
    /// offsets are how the copy assembling the shared files learns that rows went through the
    /// stages on any copy (``AssemblyTarget``), so they bound how soon a new page is published.
    /// (Kafka Streams commits as often under exactly-once.)
    package func follow(_ consumer: inout KafkaConsumerConfiguration, startingAt start: Int64? = nil) {
        if consumer.client.properties["auto.commit.interval.ms"] == nil {
            consumer.client.properties["auto.commit.interval.ms"] = "100"
        }
        consumer.startOffset = { [self] in starting($0, committed: $1, earliest: $2, at: start) }
        consumer.onAssign = { [self] partitions in assigned(partitions) }
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
