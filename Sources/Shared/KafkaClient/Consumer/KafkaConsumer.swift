import Foundation
import Logging
import Synchronization

/// A group consumer. Messages arrive as ``batches``, an `AsyncSequence` of per-partition batches.
///
/// librdkafka is polled by a thread of its own (``run()``). Offsets are stored only when a
/// lease reports a message finished, and committed in the background every second, when
/// partitions are revoked, and on close. Partitions with too many unfinished messages are
/// paused until the application catches up.
package final class KafkaConsumer: Sendable {
    /// Messages of one partition at a time, in offset order. Ends when the consumer closes.
    package let batches: AsyncStream<KafkaMessageBatch>

    private let continuation: AsyncStream<KafkaMessageBatch>.Continuation
    private let client: RDKafkaClient
    private let assignment: KafkaConsumerAssignment
    private let latestLag: LatestValue<KafkaConsumerLag?>
    private let latestFetchStates: LatestValue<KafkaFetchStates?>
    private let brokersUp: LatestValue<Int?>
    private let lastPoll = LatestValue<ContinuousClock.Instant?>(nil)
    private let oldestStall = LatestValue<ContinuousClock.Instant?>(nil)
    private let shutdownRequested = Atomic<Bool>(false)
    private let configuration: KafkaConsumerConfiguration
    private let logger: Logger

    package init(configuration: KafkaConsumerConfiguration, logger: Logger) throws {
        let properties = configuration.client.clientProperties(defaults: [
            ("group.id", configuration.groupID),
            ("enable.auto.commit", "true"),
            ("enable.auto.offset.store", "false"),
            ("auto.commit.interval.ms", "1000"),
            ("auto.offset.reset", "earliest"),
            ("enable.partition.eof", "false"),
            ("partition.assignment.strategy", "cooperative-sticky"),
            ("reconnect.backoff.max.ms", "1000"),
            // librdkafka holds this per partition, but compares it with the one queue all partitions
            // forward to; at the default (100,000) a few busy partitions trip it and fetching
            // backs off for a second. Memory stays bounded by queued.max.messages.kbytes.
            ("queued.min.messages", "1000000"),
            // librdkafka's own prefetch, one queue for all partitions, takes a quarter of the
            // process's buffer budget (its default, 64 MiB, at the default budget of 256 MiB).
            ("queued.max.messages.kbytes", "\(max((configuration.maxBufferedBytesTotal / 4) >> 10, 1_024))"),
            ("statistics.interval.ms", "\(configuration.statisticsInterval.milliseconds)"),
        ])

        var offsetReader: RDKafkaClient?
        if configuration.startOffset != nil || configuration.onAssign != nil {
            offsetReader = try RDKafkaClient(
                type: .consumer,
                properties: configuration.client.clientProperties(
                    clientIDSuffix: "offsets",
                    defaults: [("group.id", configuration.groupID), ("enable.auto.commit", "false")]),
                callbacks: RDKafkaCallbacks(logger: logger))
        }
        let assignment = KafkaConsumerAssignment(
            configuration: configuration, offsetReader: offsetReader, logger: logger)
        let latestLag = LatestValue<KafkaConsumerLag?>(nil)
        let latestFetchStates = LatestValue<KafkaFetchStates?>(nil)
        let brokersUp = LatestValue<Int?>(nil)
        let callbacks = RDKafkaCallbacks(logger: logger)
        callbacks.rebalance = { client, rebalance in assignment.rebalance(rebalance, client: client) }
        callbacks.statistics = { json in
            guard let statistics = KafkaStatistics(json: json) else { return }
            latestLag.value = KafkaConsumerLag(statistics: statistics)
            // Served from the consumer queue, on the poll thread: the leases may be read here.
            latestFetchStates.value = KafkaFetchStates(statistics: statistics, held: Set(assignment.leases.keys))
            if let up = KafkaConsumerHealth.brokersUp(statistics) { brokersUp.value = up }
        }
        let client = try RDKafkaClient(type: .consumer, properties: properties, callbacks: callbacks)
        client.forwardEventsToConsumerQueue()

        (batches, continuation) = AsyncStream.makeStream(of: KafkaMessageBatch.self)
        self.client = client
        self.assignment = assignment
        self.latestLag = latestLag
        self.latestFetchStates = latestFetchStates
        self.brokersUp = brokersUp
        self.configuration = configuration
        self.logger = logger
    }

    /// Joins the group for `topics`. Partitions arrive once ``run()`` polls.
    package func subscribe(topics: [String]) throws {
        try client.subscribe(topics)
    }

    /// Polls until ``shutdown()``; then drains, commits, leaves the group and returns.
    package func run() async throws {
        try await withTaskCancellationHandler {
            try await DedicatedThread.run(name: "kafka-consumer") { [self] in self.pollLoop() }
        } onCancel: {
            shutdown()
        }
    }

    /// Asks the poll loop to stop taking messages and close. Returns at once.
    package func shutdown() {
        shutdownRequested.store(true, ordering: .releasing)
    }

    /// The latest consumer lag librdkafka reported, if any yet.
    package var lag: KafkaConsumerLag? { latestLag.value }

    /// The held partitions librdkafka was not fetching at its latest statistics report.
    package var fetchStates: KafkaFetchStates? { latestFetchStates.value }

    /// The most key and value bytes buffered over all partitions at once, as the poll loop saw
    /// it: what ``KafkaConsumerConfiguration/maxBufferedBytesTotal`` bounds.
    package var peakBufferedBytes: Int { assignment.peakBufferedBytes.load(ordering: .relaxed) }

    /// Whether the poll loop runs, the group assigned partitions, and brokers are connected.
    package var health: KafkaConsumerHealth {
        KafkaConsumerHealth(
            lastPoll: lastPoll.value, stalledSince: oldestStall.value,
            joined: assignment.joined.load(ordering: .relaxed),
            assignedPartitions: assignment.assignedCount.load(ordering: .relaxed), brokersUp: brokersUp.value,
            held: assignment.heldStarts.withLock { $0 })
    }

    /// The cluster's topics, read over this consumer's connection.
    package func metadata(timeout: Duration) async throws -> KafkaMetadata {
        try await configuration.client.runBlocking { [client] in
            try client.metadata(timeoutMilliseconds: timeout.timeoutMilliseconds)
        }
    }

    private func pollLoop() {
        guard let queue = client.consumerQueue() else {
            logger.error("consumer has no group queue")
            continuation.finish()
            return
        }
        while !shutdownRequested.load(ordering: .acquiring) {
            lastPoll.value = .now
            let messages = queue.consumeBatch(timeoutMilliseconds: 100) { error in
                logger.warning("consume error", metadata: ["kafka.error": "\(error)"])
            }
            if !messages.isEmpty { dispatch(messages) }
            assignment.decideHeld(client: client)
            assignment.storeFinishedOffsets(client: client)
            oldestStall.value = assignment.oldestStall
            assignment.applyBackpressure(
                client: client, maxMessages: configuration.maxBufferedPerPartition,
                maxBytes: configuration.partitionByteLimit(holding: assignment.leases.count))
        }

        assignment.drainAll()
        assignment.storeFinishedOffsets(client: client)
        assignment.commit(client: client)
        close()
        if !assignment.joined.load(ordering: .relaxed) { client.skipDestroyIfItAborts() }
        continuation.finish()
        logger.info("consumer closed")
    }

    /// Leaves the group, waiting ``KafkaConsumerConfiguration/closeTimeout`` at most: the close
    /// runs on a thread of its own, which holds the client, so the handle is never destroyed
    /// under a close that is still blocked.
    private func close() {
        let (client, finished, outcome) = (client, DispatchSemaphore(value: 0), LatestValue<KafkaError?>(nil))
        let closing = Thread {
            let error = client.close()
            outcome.value = error
            finished.signal()
        }
        closing.name = "kafka-consumer-close"
        closing.start()
        if finished.wait(timeout: .now() + configuration.closeTimeout.seconds) == .timedOut {
            logger.warning(
                "consumer close still waiting for librdkafka: ending without it; the group drops this member at its session timeout",
                metadata: ["timeout_s": "\(configuration.closeTimeout.seconds)"])
        } else if let error = outcome.value {
            logger.warning("consumer close", metadata: ["kafka.error": "\(error)"])
        }
    }

    /// Where a partition's batch passes the `room` its buffer has left: the index of the first
    /// message not taken; nil when all fit. A buffer holding nothing takes at least one message.
    static func cut(_ batch: [KafkaConsumerMessage], room: Int, holdingAlready: Bool) -> Int? {
        var bytes = 0
        for (index, message) in batch.enumerated() {
            bytes += message.value.count + (message.key?.count ?? 0)
            if bytes > room && (index > 0 || holdingAlready) { return index }
        }
        return nil
    }

    /// Groups `messages` by partition, in the order they came, and hands each group to its lease.
    private func dispatch(_ messages: [KafkaConsumerMessage]) {
        var pending: [[KafkaConsumerMessage]] = []
        for message in messages {
            if let index = pending.lastIndex(where: {
                $0[0].partition == message.partition && $0[0].topic == message.topic
            }) {
                pending[index].append(message)
            } else {
                pending.append([message])
            }
        }
        let byteLimit = configuration.partitionByteLimit(holding: assignment.leases.count)
        for var batch in pending {
            guard let first = batch.first else { continue }
            let topicPartition = KafkaTopicPartition(topic: first.topic, partition: first.partition)
            // A partition revoked while its messages were queued: the next owner reads them.
            guard let lease = assignment.lease(for: topicPartition) else { continue }
            if let lose = configuration.fetchLoss {
                let lost = lose(topicPartition, batch.map(\.offset))
                batch.removeAll { lost.contains($0.offset) }
                guard !batch.isEmpty else { continue }
            }
            // What librdkafka fetched ahead of the buffer's room is fetched again once it drains.
            let buffered = lease.buffered
            if let cut = Self.cut(batch, room: byteLimit - buffered.bytes, holdingAlready: buffered.messages > 0) {
                assignment.hold(lease, fetchAgainFrom: batch[cut].offset, client: client)
                batch.removeSubrange(cut...)
                guard !batch.isEmpty else { continue }
            }
            switch lease.continuity.admit(batch.lazy.map(\.offset)) {
            case .deliver:
                break
            case .refetch(let offset, let missing):
                // A compacted log shows holes too: the warning waits for a fetch again to fill it.
                logger.info(
                    "offsets missing from a fetch; fetching again",
                    metadata: [
                        "kafka.partition": "\(topicPartition)", "kafka.offset": "\(offset)",
                        "kafka.missing": "\(missing)",
                    ])
                assignment.refetch(topicPartition, from: offset, client: client)
                continue
            case .deliverRefilled(let missing):
                logger.warning(
                    "a fetch had skipped offsets that a fetch again found; delivering them",
                    metadata: ["kafka.partition": "\(topicPartition)", "kafka.offsets": "\(missing)"])
            case .deliverPastGap(let missing):
                logger.info(
                    "offsets absent from the log (compacted, or transaction markers); going on past them",
                    metadata: ["kafka.partition": "\(topicPartition)", "kafka.offsets": "\(missing)"])
            }
            continuation.yield(KafkaMessageBatch(lease: lease, messages: batch))
        }
    }
}
