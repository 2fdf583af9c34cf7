import ArtpipeSupport
import CKafka
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
    private let drainTimeout: Duration
    private let startOffset: (@Sendable (KafkaTopicPartition, Int64?, Int64?) -> Int64?)?
    private let onRevoke: (@Sendable ([KafkaTopicPartition], Bool) -> Void)?
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
        self.onRevoke = configuration.onRevoke
        self.offsetReader = offsetReader
        self.logger = logger
    }

    func lease(for topicPartition: KafkaTopicPartition) -> KafkaPartitionLease? {
        leases[topicPartition]
    }

    func rebalance(
        handle: OpaquePointer, error: rd_kafka_resp_err_t,
        partitions: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>
    ) {
        let cooperative = String(cString: rd_kafka_rebalance_protocol(handle)) == "COOPERATIVE"
        let topicPartitions = RDKafkaTopicPartitionList.topicPartitions(partitions)
        switch error {
        case RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS:
            // Only the eager protocol can hand over a partition we still hold: retire the old lease
            // first, so its buffered messages are not handled alongside the new ones.
            drain(topicPartitions.compactMap { leases[$0] })
            for topicPartition in topicPartitions {
                leases[topicPartition] = KafkaPartitionLease(topicPartition)
            }
            if let startOffset {
                let committed = committedOffsets(topicPartitions)
                for index in 0..<Int(partitions.pointee.cnt) {
                    let topicPartition = topicPartitions[index]
                    if let offset = startOffset(
                        topicPartition, committed[topicPartition], earliestOffset(topicPartition))
                    {
                        partitions.pointee.elems[index].offset = offset
                    }
                }
            }
            joined.store(true, ordering: .relaxed)
            assignedCount.store(leases.count, ordering: .relaxed)
            logger.info("partitions assigned", metadata: ["kafka.partitions": "\(topicPartitions.map(\.description))"])
            if cooperative {
                report(rd_kafka_incremental_assign(handle, partitions), "cannot take partitions")
            } else {
                let result = rd_kafka_assign(handle, partitions)
                if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                    logger.error(
                        "cannot take partitions", metadata: ["kafka.error": "\(KafkaError("assign", rdError: result))"])
                }
            }
            // librdkafka keeps a partition's pause through unassign: one paused when it was taken
            // away would stay paused when it comes back, while its new lease says it runs.
            _ = rd_kafka_resume_partitions(handle, partitions)
        case RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS:
            let lost = rd_kafka_assignment_lost(handle) != 0
            let revoked = topicPartitions.compactMap { leases.removeValue(forKey: $0) }
            assignedCount.store(leases.count, ordering: .relaxed)
            if !drainedForClose { drain(revoked) }
            onRevoke?(topicPartitions, lost)
            if lost {
                // Another member may own them already: committing now could move its position back.
                logger.warning(
                    "partitions lost", metadata: ["kafka.partitions": "\(topicPartitions.map(\.description))"])
            } else {
                store(revoked, handle: handle)
                commit(handle: handle)
                logger.info(
                    "partitions revoked", metadata: ["kafka.partitions": "\(topicPartitions.map(\.description))"])
            }
            if cooperative {
                report(rd_kafka_incremental_unassign(handle, partitions), "cannot release partitions")
            } else {
                _ = rd_kafka_assign(handle, nil)
            }
        default:
            logger.error("rebalance failed", metadata: ["kafka.error": "\(KafkaError("rebalance", rdError: error))"])
            _ = rd_kafka_assign(handle, nil)
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
    func storeFinishedOffsets(handle: OpaquePointer) {
        store(Array(leases.values), handle: handle)
    }

    private func store(_ leases: [KafkaPartitionLease], handle: OpaquePointer) {
        let entries = leases.compactMap { lease in
            lease.takeOffsetToStore().map { (lease.topicPartition, Optional($0)) }
        }
        guard !entries.isEmpty else { return }
        let result = RDKafkaTopicPartitionList.with(entries) { rd_kafka_offsets_store(handle, $0) }
        if result != RD_KAFKA_RESP_ERR_NO_ERROR {
            logger.debug("offsets not stored", metadata: ["kafka.error": "\(KafkaError("store", rdError: result))"])
        }
    }

    /// Commits every stored offset now and waits for the broker's answer.
    func commit(handle: OpaquePointer) {
        let result = rd_kafka_commit(handle, nil, 0)
        if result != RD_KAFKA_RESP_ERR_NO_ERROR && result != RD_KAFKA_RESP_ERR__NO_OFFSET {
            logger.warning("commit failed", metadata: ["kafka.error": "\(KafkaError("commit", rdError: result))"])
        }
    }

    /// Pauses partitions whose buffered batches pass either limit; resumes them once below
    /// half of both. librdkafka drops its prefetched messages of a paused partition and fetches
    /// them again on resume, so the limits are set high enough that pausing is the exception.
    func applyBackpressure(handle: OpaquePointer, maxMessages: Int, maxBytes: Int) {
        var pause: [(KafkaTopicPartition, Int64?)] = []
        var resume: [(KafkaTopicPartition, Int64?)] = []
        for lease in leases.values {
            let buffered = lease.buffered
            if !lease.paused && (buffered.messages > maxMessages || buffered.bytes > maxBytes) {
                lease.paused = true
                pause.append((lease.topicPartition, nil))
            } else if lease.paused && buffered.messages <= maxMessages / 2 && buffered.bytes <= maxBytes / 2 {
                lease.paused = false
                resume.append((lease.topicPartition, nil))
            }
        }
        if !pause.isEmpty { _ = RDKafkaTopicPartitionList.with(pause) { rd_kafka_pause_partitions(handle, $0) } }
        if !resume.isEmpty {
            if Self.maySkipAfterResume {
                // Fetch again from right after the last message handed to us, not from where
                // librdkafka thinks the application stands.
                let positions = resume.compactMap { topicPartition, _ in
                    leases[topicPartition]?.continuity.deliveredThrough.map { (topicPartition, Optional($0 + 1)) }
                }
                if !positions.isEmpty {
                    report(
                        RDKafkaTopicPartitionList.with(positions) { rd_kafka_seek_partitions(handle, $0, 0) },
                        "cannot seek resumed partitions")
                }
            }
            _ = RDKafkaTopicPartitionList.with(resume) { rd_kafka_resume_partitions(handle, $0) }
        }
    }

    /// Fetches `topicPartition` again from `offset` (``KafkaDeliveryContinuity``).
    func refetch(_ topicPartition: KafkaTopicPartition, from offset: Int64, handle: OpaquePointer) {
        report(
            RDKafkaTopicPartitionList.with([(topicPartition, offset)]) { rd_kafka_seek_partitions(handle, $0, 0) },
            "cannot fetch a partition again")
    }

    /// librdkafka before 2.1.0 can skip messages of a partition paused and resumed while its
    /// messages were being fetched (confluentinc/librdkafka#4208).
    static let maySkipAfterResume = !KafkaLibraryVersion.isAtLeast(2, 1)

    private func report(_ error: OpaquePointer?, _ context: String) {
        guard let error else { return }
        logger.error("\(context)", metadata: ["kafka.error": "\(KafkaError(context, error: error))"])
        rd_kafka_error_destroy(error)
    }

    /// The group's committed offsets of `topicPartitions` (absent where none, or when the
    /// coordinator does not answer).
    /// The oldest offset `topicPartition` still holds: a broker round trip, made only for
    /// consumers that choose their start offsets. Nil when the broker did not answer in time.
    private func earliestOffset(_ topicPartition: KafkaTopicPartition) -> Int64? {
        guard let offsetReader else { return nil }
        var (low, high): (Int64, Int64) = (0, 0)
        let error = rd_kafka_query_watermark_offsets(
            offsetReader.handle, topicPartition.topic, topicPartition.partition, &low, &high, 5_000)
        guard error == RD_KAFKA_RESP_ERR_NO_ERROR else {
            logger.warning(
                "cannot read the oldest offset a partition holds",
                metadata: [
                    "kafka.partition": "\(topicPartition)",
                    "kafka.error": "\(KafkaError("watermarks", rdError: error))",
                ])
            return nil
        }
        return low
    }

    private func committedOffsets(_ topicPartitions: [KafkaTopicPartition]) -> [KafkaTopicPartition: Int64] {
        guard let offsetReader else { return [:] }
        return RDKafkaTopicPartitionList.with(topicPartitions.map { ($0, nil) }) { list in
            guard rd_kafka_committed(offsetReader.handle, list, 10_000) == RD_KAFKA_RESP_ERR_NO_ERROR else {
                return [:]
            }
            var offsets: [KafkaTopicPartition: Int64] = [:]
            for index in 0..<Int(list.pointee.cnt) where list.pointee.elems[index].offset >= 0 {
                offsets[topicPartitions[index]] = list.pointee.elems[index].offset
            }
            return offsets
        }
    }
}
