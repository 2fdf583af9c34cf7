import Foundation
import Logging

/// Reads what a topic holds right now, outside any consumer group: for status reports and for
/// workers that rebuild what they know of a partition, neither of which may disturb the groups
/// that consume the topic.
package enum KafkaTopicSnapshot {
    /// Every message of every partition, collected.
    package static func read(
        _ topic: String, configuration: KafkaClientConfiguration, timeout: Duration, logger: Logger
    ) async throws -> [KafkaConsumerMessage] {
        let messages = MessageList()
        try await scan(topic, configuration: configuration, timeout: timeout, logger: logger) {
            messages.items.append($0)
        }
        return messages.items
    }

    /// Hands `visit` each message from `starts` (partition → first offset; every partition from
    /// its low watermark when nil) up to the high watermark each partition had when the scan
    /// began (or up to `ends`' offset for a partition it names, when lower), in offset order per
    /// partition. Where the fetch that reached that watermark says the partition ends further
    /// on, the scan goes on to there, once: a broker whose offset answer lags its log (Tansu's
    /// names the first offset of the last batch, plus one) would otherwise end it early. Nothing
    /// is kept: memory stays flat however long the topic is. `visit` runs on a blocking thread.
    /// `timeout` bounds the whole scan; `requestTimeout` (the whole by default) each question to
    /// the broker; `stallTimeout`, when given, the time without a message while some are still
    /// to come. The scan stops early, without an error, once
    /// `continuing` says no.
    package static func scan(
        _ topic: String, from starts: [Int32: Int64]? = nil, upTo ends: [Int32: Int64] = [:],
        configuration: KafkaClientConfiguration, timeout: Duration, requestTimeout: Duration? = nil,
        stallTimeout: Duration? = nil, logger: Logger, continuing: @escaping @Sendable () -> Bool = { true },
        visit: @escaping @Sendable (KafkaConsumerMessage) -> Void
    ) async throws {
        let properties = configuration.clientProperties(
            clientIDSuffix: "snapshot", defaults: [("enable.partition.eof", "false"), ("enable.auto.commit", "false")],
            // librdkafka wants a group to assign partitions; it is never joined or committed to.
            fixed: [("group.id", "\(configuration.clientID)-snapshot-\(getpid())")])
        let limits = Limits(
            whole: timeout.timeoutMilliseconds, request: (requestTimeout ?? timeout).timeoutMilliseconds,
            stall: stallTimeout)
        // Made, used and closed (each blocks) on a blocking thread, never the cooperative pool.
        try await configuration.runBlocking {
            let client = try RDKafkaClient(
                type: .consumer, properties: properties, callbacks: RDKafkaCallbacks(logger: logger))
            try scan(
                topic, from: starts, upTo: ends, client: client, limits: limits, continuing: continuing, visit: visit)
        }
    }

    private static func scan(
        _ topic: String, from starts: [Int32: Int64]?, upTo ends: [Int32: Int64], client: RDKafkaClient,
        limits: Limits, continuing: () -> Bool,
        visit: (KafkaConsumerMessage) -> Void
    ) throws {
        let partitions: [Int32]
        if let starts {
            partitions = starts.keys.sorted()
        } else {
            let metadata = try client.metadata(timeoutMilliseconds: limits.request)
            guard let count = metadata.partitionsByTopic[topic] else {
                throw KafkaError("topic \(topic) does not exist")
            }
            partitions = Array(0..<Int32(count))
        }
        var remaining: [Int32: Int64] = [:]
        var assignment: [(KafkaTopicPartition, Int64?)] = []
        for partition in partitions {
            let (low, watermark) = try client.watermarks(
                KafkaTopicPartition(topic: topic, partition: partition), timeoutMilliseconds: limits.request)
            let high = min(watermark, ends[partition] ?? watermark)
            let start = max(starts?[partition] ?? low, low)
            if start < high {
                remaining[partition] = high
                assignment.append((KafkaTopicPartition(topic: topic, partition: partition), start))
            }
        }
        guard !assignment.isEmpty else { return }
        try client.assign(assignment)
        defer { client.unassign() }
        let deadline = ContinuousClock.now + .milliseconds(Int64(limits.whole))
        var lastMessage = ContinuousClock.now
        var asked = ContinuousClock.now
        // Partitions whose end the fetch moved on once.
        var extended = Set<Int32>()
        guard continuing() else { return }
        while !remaining.isEmpty {
            let now = ContinuousClock.now
            // Asked every 100 ms, not every message: it may take a lock, and a scan may read millions.
            if now - asked >= .milliseconds(100) {
                guard continuing() else { return }
                asked = now
            }
            guard now < deadline else {
                throw KafkaError("reading \(topic) took longer than \(limits.whole) ms")
            }
            if let stall = limits.stall, now - lastMessage > stall {
                throw KafkaError("reading \(topic): no message for \(stall) with \(remaining.count) partitions to go")
            }
            guard let message = client.pollMessage(of: topic, timeoutMilliseconds: 100) else { continue }
            lastMessage = .now
            let partition = message.partition
            guard var high = remaining[partition] else { continue }
            // At the end as the broker first said: where the fetch says it ends further on, once.
            if message.offset + 1 >= high, !extended.contains(partition),
                let fetched = client.fetchedHighWatermark(KafkaTopicPartition(topic: topic, partition: partition)),
                case let further = min(fetched, ends[partition] ?? fetched), further > high
            {
                extended.insert(partition)
                (high, remaining[partition]) = (further, further)
            }
            if message.offset < high { visit(message) }
            if message.offset + 1 >= high { remaining[partition] = nil }
        }
    }

    /// How long a scan, each question to the broker, and a wait for the next message may take.
    private struct Limits: Sendable {
        let whole: Int32
        let request: Int32
        let stall: Duration?
    }

    /// What `read` collects; only the blocking thread that scans touches it.
    private final class MessageList: @unchecked Sendable {
        var items: [KafkaConsumerMessage] = []
    }
}
