import CKafka
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
            ("statistics.interval.ms", "\(configuration.statisticsInterval.milliseconds)"),
        ])

        var offsetReader: RDKafkaClient?
        if configuration.startOffset != nil {
            offsetReader = try RDKafkaClient(
                type: RD_KAFKA_CONSUMER,
                properties: configuration.client.clientProperties(
                    clientIDSuffix: "offsets",
                    defaults: [("group.id", configuration.groupID), ("enable.auto.commit", "false")]),
                callbacks: RDKafkaCallbacks(logger: logger))
        }
        let assignment = KafkaConsumerAssignment(
            configuration: configuration, offsetReader: offsetReader, logger: logger)
        let latestLag = LatestValue<KafkaConsumerLag?>(nil)
        let brokersUp = LatestValue<Int?>(nil)
        let callbacks = RDKafkaCallbacks(logger: logger)
        callbacks.rebalance = { handle, error, partitions in
            assignment.rebalance(handle: handle, error: error, partitions: partitions)
        }
        callbacks.statistics = { json in
            if let lag = KafkaConsumerLag(statisticsJSON: json) { latestLag.value = lag }
            if let up = KafkaConsumerHealth.brokersUp(statisticsJSON: json) { brokersUp.value = up }
        }
        let client = try RDKafkaClient(type: RD_KAFKA_CONSUMER, properties: properties, callbacks: callbacks)
        // Serve logs, statistics and rebalances from the consumer queue the poll loop reads.
        rd_kafka_poll_set_consumer(client.handle)

        (batches, continuation) = AsyncStream.makeStream(of: KafkaMessageBatch.self)
        self.client = client
        self.assignment = assignment
        self.latestLag = latestLag
        self.brokersUp = brokersUp
        self.configuration = configuration
        self.logger = logger
    }

    /// Joins the group for `topics`. Partitions arrive once ``run()`` polls.
    package func subscribe(topics: [String]) throws {
        let result = RDKafkaTopicPartitionList.with(topics.map { (KafkaTopicPartition(topic: $0, partition: -1), nil) })
        {
            rd_kafka_subscribe(client.handle, $0)
        }
        guard result == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError("cannot subscribe to \(topics.joined(separator: ","))", rdError: result)
        }
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

    /// Whether the poll loop runs, the group assigned partitions, and brokers are connected.
    package var health: KafkaConsumerHealth {
        KafkaConsumerHealth(
            lastPoll: lastPoll.value, stalledSince: oldestStall.value,
            joined: assignment.joined.load(ordering: .relaxed),
            assignedPartitions: assignment.assignedCount.load(ordering: .relaxed), brokersUp: brokersUp.value)
    }

    /// The cluster's topics, read over this consumer's connection.
    package func metadata(timeout: Duration) async throws -> KafkaMetadata {
        try await configuration.client.runBlocking { [client] in
            try client.metadata(timeoutMilliseconds: Int32(timeout.milliseconds))
        }
    }

    private func pollLoop() {
        let handle = client.handle
        guard let queue = rd_kafka_queue_get_consumer(handle) else {
            logger.error("consumer has no group queue")
            continuation.finish()
            return
        }
        defer { rd_kafka_queue_destroy(queue) }
        let capacity = 2_048
        let buffer = UnsafeMutablePointer<UnsafeMutablePointer<rd_kafka_message_t>?>.allocate(capacity: capacity)
        defer { buffer.deallocate() }

        while !shutdownRequested.load(ordering: .acquiring) {
            lastPoll.value = .now
            let count = rd_kafka_consume_batch_queue(queue, 100, buffer, capacity)
            if count > 0 {
                dispatch(UnsafeMutableBufferPointer(start: buffer, count: count))
            }
            assignment.storeFinishedOffsets(handle: handle)
            oldestStall.value = assignment.oldestStall
            assignment.applyBackpressure(
                handle: handle, maxMessages: configuration.maxBufferedPerPartition,
                maxBytes: configuration.maxBufferedBytesPerPartition)
        }

        assignment.drainAll()
        assignment.storeFinishedOffsets(handle: handle)
        assignment.commit(handle: handle)
        let closeError = rd_kafka_consumer_close(handle)
        if closeError != RD_KAFKA_RESP_ERR_NO_ERROR {
            logger.warning("consumer close", metadata: ["kafka.error": "\(KafkaError("close", rdError: closeError))"])
        }
        if !assignment.joined.load(ordering: .relaxed) { client.skipDestroyIfItAborts() }
        continuation.finish()
        logger.info("consumer closed")
    }

    private struct PendingBatch {
        let topic: OpaquePointer?
        let partition: Int32
        var messages: [KafkaConsumerMessage]
    }

    private func dispatch(_ messages: UnsafeMutableBufferPointer<UnsafeMutablePointer<rd_kafka_message_t>?>) {
        var pending: [PendingBatch] = []
        var topicNames: [OpaquePointer: String] = [:]
        for case let message? in messages {
            defer { rd_kafka_message_destroy(message) }
            let raw = message.pointee
            guard raw.err == RD_KAFKA_RESP_ERR_NO_ERROR else {
                logger.warning("consume error", metadata: ["kafka.error": "\(KafkaError("consume", rdError: raw.err))"])
                continue
            }
            let topic: String
            if let name = topicNames[raw.rkt] {
                topic = name
            } else {
                topic = String(cString: rd_kafka_topic_name(raw.rkt))
                topicNames[raw.rkt] = topic
            }
            let converted = Self.convert(message, topic: topic)
            if let index = pending.lastIndex(where: { $0.topic == raw.rkt && $0.partition == raw.partition }) {
                pending[index].messages.append(converted)
            } else {
                pending.append(PendingBatch(topic: raw.rkt, partition: raw.partition, messages: [converted]))
            }
        }
        for batch in pending {
            guard let first = batch.messages.first else { continue }
            let topicPartition = KafkaTopicPartition(topic: first.topic, partition: batch.partition)
            // A partition revoked while its messages were queued: the next owner reads them.
            guard let lease = assignment.lease(for: topicPartition), let last = batch.messages.last else { continue }
            switch lease.continuity.admit(first: first.offset, last: last.offset) {
            case .deliver:
                break
            case .refetch(let offset):
                logger.warning(
                    "offsets skipped in a fetch; fetching again",
                    metadata: [
                        "kafka.partition": "\(topicPartition)", "kafka.offset": "\(offset)",
                        "kafka.next": "\(first.offset)",
                    ])
                assignment.refetch(topicPartition, from: offset, handle: client.handle)
                continue
            case .deliverPastGap(let missing):
                logger.info(
                    "offsets absent from the log (compacted, or transaction markers); going on past them",
                    metadata: ["kafka.partition": "\(topicPartition)", "kafka.offsets": "\(missing)"])
            }
            continuation.yield(KafkaMessageBatch(lease: lease, messages: batch.messages))
        }
    }

    static func convert(_ message: UnsafeMutablePointer<rd_kafka_message_t>, topic: String)
        -> KafkaConsumerMessage
    {
        let raw = message.pointee
        let value = raw.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: raw.len)) } ?? []
        let key = raw.key.map { Array(UnsafeRawBufferPointer(start: $0, count: raw.key_len)) }
        var headers: [KafkaHeader] = []
        var rawHeaders: OpaquePointer?
        if rd_kafka_message_headers(message, &rawHeaders) == RD_KAFKA_RESP_ERR_NO_ERROR, let rawHeaders {
            var index = 0
            var name: UnsafePointer<CChar>?
            var headerValue: UnsafeRawPointer?
            var size = 0
            while rd_kafka_header_get_all(rawHeaders, index, &name, &headerValue, &size) == RD_KAFKA_RESP_ERR_NO_ERROR {
                let bytes = headerValue.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) }
                headers.append(KafkaHeader(name.map { String(cString: $0) } ?? "", bytes))
                index += 1
            }
        }
        var timestampType = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE
        let timestamp = rd_kafka_message_timestamp(message, &timestampType)
        return KafkaConsumerMessage(
            topic: topic, partition: raw.partition, offset: raw.offset, key: key, value: value, headers: headers,
            timestampMilliseconds: timestampType == RD_KAFKA_TIMESTAMP_NOT_AVAILABLE ? nil : timestamp)
    }
}
