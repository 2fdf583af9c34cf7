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
    private let fence: GroupMembershipFence?
    /// A second handle in the same group, never subscribed, for reading committed offsets:
    /// asking the member's own handle from inside its rebalance callback left later
    /// incremental assignments without fetching on the embedded broker.
    private let offsetReader: RDKafkaClient?
    private let logger: Logger
    /// Set once every lease was drained for closing: the revoke that closing brings waits no more.
    private var drainedForClose = false
    /// Assignments whose start offsets could not be decided (a read the broker did not answer):
    /// without leases, so nothing they fetch is delivered, asked again until the broker answers
    /// (``decideHeld(client:)``).
    private var held: [HeldAssignment] = [] {
        didSet {
            let starts = held.map(\.since).min().map {
                KafkaConsumerHealth.HeldStarts(partitions: held.reduce(0) { $0 + $1.partitions.count }, since: $0)
            }
            heldStarts.withLock { $0 = starts }
        }
    }
    /// How many partitions wait for the broker to say where they start, and since when the
    /// longest has waited (nil when none): for health checks from other threads, set whenever
    /// ``held`` changes, in a rebalance's callback too.
    let heldStarts = Mutex<KafkaConsumerHealth.HeldStarts?>(nil)

    /// Partitions assigned together whose start waits on a read the broker did not answer.
    private struct HeldAssignment {
        var partitions: [KafkaTopicPartition]
        let since: ContinuousClock.Instant
        var attempts: Int
        var nextAttempt: ContinuousClock.Instant
    }

    /// Where one partition of an assignment starts, and what its lease and ``onAssign`` get.
    private struct Start {
        var topicPartition: KafkaTopicPartition
        var commitFloor: Int64?
        /// Nil: the group's committed offset, else the partition's oldest.
        var offset: Int64?
        var committed: Int64?
        var end: Int64?
    }

    init(configuration: KafkaConsumerConfiguration, offsetReader: RDKafkaClient?, logger: Logger) {
        self.drainTimeout = configuration.drainTimeout
        self.startOffset = configuration.startOffset
        self.changelog = configuration.changelog
        self.onRevoke = configuration.onRevoke
        self.onAssign = configuration.onAssign
        self.fence = configuration.fence
        self.offsetReader = offsetReader
        self.logger = logger
    }

    func lease(for topicPartition: KafkaTopicPartition) -> KafkaPartitionLease? {
        leases[topicPartition]
    }

    func rebalance(_ rebalance: RDKafkaRebalance, client: RDKafkaClient) {
        // A lost revoke's drain, or an assignment's start reads, can outlast a stall's doubt.
        fence?.rebalanceBegan()
        defer { fence?.rebalanceEnded() }
        let topicPartitions = rebalance.partitions
        switch rebalance.kind {
        case .assign:
            // Only the eager protocol can hand over a partition we still hold: retire the old lease
            // first, so its buffered messages are not handled alongside the new ones.
            drain(topicPartitions.compactMap { leases[$0] })
            var ends: [KafkaTopicPartition: Int64?] = [:]
            var holding = false
            if startOffset != nil {
                do {
                    for (index, start) in try starts(of: topicPartitions).enumerated() {
                        leases[start.topicPartition] = KafkaPartitionLease(
                            start.topicPartition, commitFloor: start.commitFloor)
                        ends[start.topicPartition] = start.end
                        if let offset = start.offset { rebalance.setStartOffset(offset, at: index) }
                    }
                } catch {
                    // An unknown is never read as "nothing committed" or "no gap": the partitions
                    // wait, paused, until the broker answers.
                    holding = true
                    // Somewhere to wait that asks the coordinator nothing, moved to their start once
                    // it is known; not paused (a pause or resume while librdkafka starts fetching a
                    // partition can leave it never fetching, ``RDKafkaRebalance/accept()``). The
                    // oldest offset, not the end: should the move to the start ever lose to
                    // librdkafka's own start, the partition is read again, never skipped.
                    for index in topicPartitions.indices {
                        rebalance.setStartOffset(KafkaConsumerConfiguration.beginningOffset, at: index)
                    }
                    let now = ContinuousClock.now
                    held.append(
                        HeldAssignment(
                            partitions: topicPartitions, since: now, attempts: 1, nextAttempt: now + .seconds(1)))
                    logger.warning(
                        "partitions held: where to start them is unknown until the broker answers",
                        metadata: [
                            "kafka.partitions": "\(topicPartitions.map(\.description))", "kafka.error": "\(error)",
                        ])
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
            if !holding { onAssign?(topicPartitions.map { ($0, ends[$0] ?? endOffset($0)) }) }
        case .revoke:
            let lost = rebalance.assignmentLost
            let revoked = topicPartitions.compactMap { leases.removeValue(forKey: $0) }
            assignedCount.store(leases.count, ordering: .relaxed)
            let gone = Set(topicPartitions)
            held = held.compactMap { assignment in
                var assignment = assignment
                assignment.partitions.removeAll(where: gone.contains)
                return assignment.partitions.isEmpty ? nil : assignment
            }
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

    /// The earliest moment since which a partition with work waiting has made no progress: a
    /// held one's since it was assigned.
    var oldestStall: ContinuousClock.Instant? {
        (leases.values.compactMap(\.stalledSince) + held.map(\.since)).min()
    }

    /// Asks again where each held assignment that is due starts; once the broker answers, its
    /// partitions get their leases and move to their start. Called by the poll loop: each
    /// question it asks waits 2 s at most.
    func decideHeld(client: RDKafkaClient) {
        let now = ContinuousClock.now
        for index in held.indices.reversed() where now >= held[index].nextAttempt {
            var assignment = held[index]
            do {
                let starts = try starts(of: assignment.partitions, patience: 2_000)
                held.remove(at: index)
                for start in starts {
                    leases[start.topicPartition] = KafkaPartitionLease(
                        start.topicPartition, commitFloor: start.commitFloor)
                }
                assignedCount.store(leases.count, ordering: .relaxed)
                let positions = starts.map {
                    (
                        $0.topicPartition,
                        Optional($0.offset ?? $0.committed ?? KafkaConsumerConfiguration.beginningOffset)
                    )
                }
                report(client.seek(positions, "cannot move held partitions to their start"))
                logger.info(
                    "held partitions started: the broker answered",
                    metadata: [
                        "kafka.partitions": "\(assignment.partitions.map(\.description))",
                        "attempts": "\(assignment.attempts + 1)",
                    ])
                onAssign?(starts.map { ($0.topicPartition, $0.end) })
            } catch {
                assignment.attempts += 1
                assignment.nextAttempt = .now + .seconds(min(1 << min(assignment.attempts - 1, 4), 10))
                held[index] = assignment
                logger.warning(
                    "partitions still held: where to start them is unknown",
                    metadata: [
                        "kafka.partitions": "\(assignment.partitions.map(\.description))", "kafka.error": "\(error)",
                        "attempts": "\(assignment.attempts)",
                    ])
            }
        }
    }

    /// Where each of `topicPartitions` starts (``KafkaConsumerConfiguration/startOffset``), and
    /// where it ends now, from the group's committed offsets, the partitions' oldest and end
    /// offsets and whether their
    /// state is new, each question waiting `patience` milliseconds at most (the committed
    /// offsets twice that). Throws when the broker did not answer a question the answer rests on.
    private func starts(of topicPartitions: [KafkaTopicPartition], patience: Int32 = 5_000) throws -> [Start] {
        guard let startOffset else {
            return topicPartitions.map { Start(topicPartition: $0) }
        }
        let committed = try committedOffsets(topicPartitions, timeoutMilliseconds: 2 * patience)
        let newState = try newStatePartitions(Set(topicPartitions.map(\.partition)), timeoutMilliseconds: patience)
        return try topicPartitions.map { topicPartition in
            // A new state ignores the committed offset: "the committed offset" is then the start.
            let ignored = committed[topicPartition] != nil && newState.contains(topicPartition.partition)
            let kept = ignored ? nil : committed[topicPartition]
            // Where the consumer starts before the committed offset (a restore), the offsets it
            // finishes below it are not committed; below the partition's end, so that a log that
            // ends before the committed offset is committed once read.
            let end = try offsetReader?.watermarks(topicPartition, timeoutMilliseconds: patience).high
            let floor = kept.map { offset in end.map { min($0, offset) } ?? offset }
            let offset = startOffset(
                topicPartition, kept, try earliestOffset(topicPartition, timeoutMilliseconds: patience))
            return Start(
                topicPartition: topicPartition, commitFloor: floor,
                offset: offset ?? (ignored ? KafkaConsumerConfiguration.beginningOffset : nil), committed: kept,
                end: end)
        }
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
    /// consumers that choose their start offsets. Throws when the broker did not answer in time.
    private func earliestOffset(_ topicPartition: KafkaTopicPartition, timeoutMilliseconds: Int32) throws -> Int64? {
        guard let offsetReader else { return nil }
        return try offsetReader.watermarks(topicPartition, timeoutMilliseconds: timeoutMilliseconds).low
    }

    /// The next offset to be written to `topicPartition` (its high watermark); nil when the
    /// broker did not answer in time.
    private func endOffset(_ topicPartition: KafkaTopicPartition) -> Int64? {
        guard let offsetReader else { return nil }
        return try? offsetReader.watermarks(topicPartition, timeoutMilliseconds: 5_000).high
    }

    /// Which of the partition numbers `partitions` the changelog holds nothing of: asked once
    /// per number, however many input topics share it. Throws when the broker did not answer.
    private func newStatePartitions(_ partitions: Set<Int32>, timeoutMilliseconds: Int32) throws -> Set<Int32> {
        guard let changelog, let offsetReader else { return [] }
        return try partitions.filter { partition in
            let watermarks = try offsetReader.watermarks(
                KafkaTopicPartition(topic: changelog, partition: partition), timeoutMilliseconds: timeoutMilliseconds)
            guard watermarks.low == watermarks.high else { return false }
            logger.info(
                "state partition is empty: the committed offsets are not used, the inputs are read from their oldest message",
                metadata: ["kafka.topic": "\(changelog)", "kafka.partition": "\(partition)"])
            return true
        }
    }

    /// The group's committed offsets of `topicPartitions` (absent where none). Throws when the
    /// coordinator does not answer, for any of them.
    private func committedOffsets(_ topicPartitions: [KafkaTopicPartition], timeoutMilliseconds: Int32) throws
        -> [KafkaTopicPartition: Int64]
    {
        guard let offsetReader else { return [:] }
        return try offsetReader.committedOffsets(topicPartitions, timeoutMilliseconds: timeoutMilliseconds)
    }
}
