import ArtpipeSupport
import Foundation
import Logging
import Synchronization

/// The partitions this consumer owns and their leases.
///
/// Confined to the consumer's poll thread: librdkafka serves the rebalance callback from
/// the same `consume` calls that the poll loop makes.
final class KafkaConsumerAssignment: @unchecked Sendable {
    private(set) var leases: [KafkaTopicPartition: KafkaPartitionLease] = [:]
    /// For health checks from other threads: a first assignment arrived, and how many partitions are held.
    let joined = Atomic<Bool>(false)
    let assignedCount = Atomic<Int>(0)
    /// The most bytes buffered over all leases at once.
    let peakBufferedBytes = Atomic<Int>(0)
    private let drainTimeout: Duration
    private let startOffset: (@Sendable (KafkaTopicPartition, Int64?, Int64?) -> Int64?)?
    private let changelog: String?
    private let onRevoke: (@Sendable ([KafkaTopicPartition], Bool) -> Void)?
    private let onAssign: (@Sendable ([(KafkaTopicPartition, endOffset: Int64?)]) -> Void)?
    /// A second handle in the same group, never subscribed, for reading committed offsets:
    /// asking the member's own handle from inside its rebalance callback left later
    /// incremental assignments without fetching on the embedded broker.
    private let offsetReader: RDKafkaClient?
    private let logger: Logger
    /// Set once every lease was drained for closing: the revoke that closing brings waits no more.
    private var drainedForClose = false

    init(configuration: KafkaConsumerConfiguration, offsetReader: RDKafkaClient?, logger: Logger) {
        self.drainTimeout = configuration.drainTimeout
        self.startOffset = configuration.startOffset
        self.changelog = configuration.changelog
        self.onRevoke = configuration.onRevoke
        self.onAssign = configuration.onAssign
        self.offsetReader = offsetReader
        self.logger = logger
    }

    func lease(for topicPartition: KafkaTopicPartition) -> KafkaPartitionLease? {
        leases[topicPartition]
    }

    func rebalance(_ rebalance: RDKafkaRebalance, client: RDKafkaClient) {
        let topicPartitions = rebalance.partitions
        switch rebalance.kind {
        case .assign:
            // Only the eager protocol can hand over a partition we still hold: retire the old lease
            // first, so its buffered messages are not handled alongside the new ones.
            drain(topicPartitions.compactMap { leases[$0] })
            var ends: [KafkaTopicPartition: Int64?] = [:]
            if let startOffset {
                let committed = committedOffsets(topicPartitions)
                let newState = newStatePartitions(Set(topicPartitions.map(\.partition)))
                for (index, topicPartition) in topicPartitions.enumerated() {
                    // A new state ignores the committed offset: "the committed offset" is then the start.
                    let ignored = committed[topicPartition] != nil && newState.contains(topicPartition.partition)
                    // Where the consumer starts before the committed offset (a restore), the
                    // offsets it finishes below it are not committed; below the partition's end,
                    // so that a log that ends before the committed offset is committed once read.
                    let end = endOffset(topicPartition)
                    ends[topicPartition] = end
                    let floor =
                        ignored
                        ? nil : committed[topicPartition].map { offset in end.map { min($0, offset) } ?? offset }
                    leases[topicPartition] = KafkaPartitionLease(topicPartition, commitFloor: floor)
                    let offset = startOffset(
                        topicPartition, ignored ? nil : committed[topicPartition], earliestOffset(topicPartition))
                    if let offset = offset ?? (ignored ? KafkaConsumerConfiguration.beginningOffset : nil) {
                        rebalance.setStartOffset(offset, at: index)
                    }
                }
            } else {
                for topicPartition in topicPartitions { leases[topicPartition] = KafkaPartitionLease(topicPartition) }
            }
            joined.store(true, ordering: .relaxed)
            assignedCount.store(leases.count, ordering: .relaxed)
            logger.info("partitions assigned", metadata: ["kafka.partitions": "\(topicPartitions.map(\.description))"])
            if let error = rebalance.accept() {
                logger.error("cannot take partitions", metadata: ["kafka.error": "\(error)"])
            }
            onAssign?(topicPartitions.map { ($0, ends[$0] ?? endOffset($0)) })
        case .revoke:
            let lost = rebalance.assignmentLost
            let revoked = topicPartitions.compactMap { leases.removeValue(forKey: $0) }
            assignedCount.store(leases.count, ordering: .relaxed)
            // librdkafka keeps a pause through unassign, so a partition paused now would stay
            // paused when it comes back. Resumed here, before it goes: resumed as it is
            // assigned, it could miss the start of its fetching.
            let paused = revoked.filter(\.paused).map(\.topicPartition)
            if !paused.isEmpty { client.resume(paused) }
            if !drainedForClose { drain(revoked) }
            onRevoke?(topicPartitions, lost)
            if lost {
                // Another member may own them already: committing now could move its position back.
                logger.warning(
                    "partitions lost", metadata: ["kafka.partitions": "\(topicPartitions.map(\.description))"])
            } else {
                store(revoked, client: client)
                commit(client: client)
                logger.info(
                    "partitions revoked", metadata: ["kafka.partitions": "\(topicPartitions.map(\.description))"])
            }
            if let error = rebalance.release() {
                logger.error("cannot release partitions", metadata: ["kafka.error": "\(error)"])
            }
        case .failed(let error):
            logger.error("rebalance failed", metadata: ["kafka.error": "\(error)"])
            rebalance.release()
        }
    }

    /// The earliest moment since which a partition with work waiting has made no progress.
    var oldestStall: ContinuousClock.Instant? {
        leases.values.compactMap(\.stalledSince).min()
    }

    /// Stops every lease before closing, waiting (bounded) for messages being handled.
    func drainAll() {
        drain(Array(leases.values))
        drainedForClose = true
    }

    private func drain(_ leases: [KafkaPartitionLease]) {
        let deadline = Date.now.addingTimeInterval(drainTimeout.seconds)
        for lease in leases where !lease.deactivate(waitingUntil: deadline) {
            logger.warning(
                "message still being handled after the drain timeout; it will be delivered again",
                metadata: ["kafka.partition": "\(lease.topicPartition)"])
        }
    }

    /// Hands finished offsets to librdkafka, which commits them in the background.
    func storeFinishedOffsets(client: RDKafkaClient) {
        store(Array(leases.values), client: client)
    }

    private func store(_ leases: [KafkaPartitionLease], client: RDKafkaClient) {
        let entries = leases.compactMap { lease in
            lease.takeOffsetToStore().map { (lease.topicPartition, Optional($0)) }
        }
        guard !entries.isEmpty else { return }
        if let error = client.storeOffsets(entries) {
            logger.debug("offsets not stored", metadata: ["kafka.error": "\(error)"])
        }
    }

    /// Commits every stored offset now and waits for the broker's answer.
    func commit(client: RDKafkaClient) {
        if let error = client.commitStoredOffsets() {
            logger.warning("commit failed", metadata: ["kafka.error": "\(error)"])
        }
    }

    /// Pauses partitions whose buffered batches pass either limit; resumes them once below
    /// half of both. librdkafka drops its prefetched messages of a paused partition and fetches
    /// them again on resume, so the limits are set high enough that pausing is the exception.
    /// A partition's byte limit is its own or its share of `maxBytesTotal`, whichever is less.
    func applyBackpressure(client: RDKafkaClient, maxMessages: Int, maxBytes: Int) {
        var pause: [KafkaTopicPartition] = []
        var resume: [KafkaTopicPartition] = []
        var total = 0
        for lease in leases.values { total += lease.buffered.bytes }
        if total > peakBufferedBytes.load(ordering: .relaxed) { peakBufferedBytes.store(total, ordering: .relaxed) }
        for lease in leases.values {
            let buffered = lease.buffered
            if !lease.paused && (buffered.messages > maxMessages || buffered.bytes > maxBytes) {
                lease.paused = true
                pause.append(lease.topicPartition)
            } else if lease.paused && buffered.messages <= maxMessages / 2 && buffered.bytes <= maxBytes / 2 {
                lease.paused = false
                resume.append(lease.topicPartition)
            }
        }
        if !pause.isEmpty { client.pause(pause) }
        if !resume.isEmpty {
            if Self.maySkipAfterResume {
                // Fetch again from right after the last message handed to us, not from where
                // librdkafka thinks the application stands.
                let positions = resume.compactMap { topicPartition in
                    leases[topicPartition]?.continuity.deliveredThrough.map { (topicPartition, Optional($0 + 1)) }
                }
                if !positions.isEmpty { report(client.seek(positions, "cannot seek resumed partitions")) }
            }
            client.resume(resume)
        }
    }

    /// Fetches `topicPartition` again from `offset` (``KafkaDeliveryContinuity``).
    /// Pauses a partition whose buffer is full and moves its position back to `offset`, the
    /// first message it had no room for: resumed, it fetches from there.
    func hold(_ lease: KafkaPartitionLease, fetchAgainFrom offset: Int64, client: RDKafkaClient) {
        if !lease.paused {
            lease.paused = true
            client.pause([lease.topicPartition])
        }
        refetch(lease.topicPartition, from: offset, client: client)
    }

    func refetch(_ topicPartition: KafkaTopicPartition, from offset: Int64, client: RDKafkaClient) {
        report(client.seek([(topicPartition, offset)], "cannot fetch a partition again"))
    }

    /// librdkafka before 2.1.0 can skip messages of a partition paused and resumed while its
    /// messages were being fetched (confluentinc/librdkafka#4208).
    static let maySkipAfterResume = !KafkaLibraryVersion.isAtLeast(2, 1)

    private func report(_ error: KafkaError?) {
        guard let error else { return }
        logger.error("\(error)")
    }

    /// The oldest offset `topicPartition` still holds: a broker round trip, made only for
    /// consumers that choose their start offsets. Nil when the broker did not answer in time.
    private func earliestOffset(_ topicPartition: KafkaTopicPartition) -> Int64? {
        guard let offsetReader else { return nil }
        do {
            return try offsetReader.watermarks(topicPartition, timeoutMilliseconds: 5_000).low
        } catch {
            logger.warning(
                "cannot read the oldest offset a partition holds",
                metadata: ["kafka.partition": "\(topicPartition)", "kafka.error": "\(error)"])
            return nil
        }
    }

    /// The next offset to be written to `topicPartition` (its high watermark); nil when the
    /// broker did not answer in time.
    private func endOffset(_ topicPartition: KafkaTopicPartition) -> Int64? {
        guard let offsetReader else { return nil }
        return try? offsetReader.watermarks(topicPartition, timeoutMilliseconds: 5_000).high
    }

    /// Which of the partition numbers `partitions` the changelog holds nothing of: asked once
    /// per number, however many input topics share it. An unanswered question counts as not
    /// new: the committed offset is kept.
    private func newStatePartitions(_ partitions: Set<Int32>) -> Set<Int32> {
        guard let changelog, let offsetReader else { return [] }
        return partitions.filter { partition in
            let watermarks = try? offsetReader.watermarks(
                KafkaTopicPartition(topic: changelog, partition: partition), timeoutMilliseconds: 5_000)
            guard let watermarks, watermarks.low == watermarks.high else { return false }
            logger.info(
                "state partition is empty: the committed offsets are not used, the inputs are read from their oldest message",
                metadata: ["kafka.topic": "\(changelog)", "kafka.partition": "\(partition)"])
            return true
        }
    }

    /// The group's committed offsets of `topicPartitions` (absent where none, or when the
    /// coordinator does not answer).
    private func committedOffsets(_ topicPartitions: [KafkaTopicPartition]) -> [KafkaTopicPartition: Int64] {
        guard let offsetReader else { return [:] }
        return (try? offsetReader.committedOffsets(topicPartitions, timeoutMilliseconds: 10_000)) ?? [:]
    }
}
