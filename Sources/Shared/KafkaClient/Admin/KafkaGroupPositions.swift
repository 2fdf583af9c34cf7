import Logging
import Synchronization

/// Where consumer groups stand on their topics, asked again and again over clients kept open
/// (one per group): for a service that watches other groups' progress every few hundred
/// milliseconds, where ``KafkaGroupOffsets`` opens a client for each question. Each question
/// is as few requests as it needs: the topics' partition counts are kept for a while.
package final class KafkaGroupPositions: Sendable {
    private let offsets: KafkaGroupOffsets
    private let clients = Mutex<[String: RDKafkaClient]>([:])
    /// Each topic's partition count, and when it was read: asked again after `countsKeptFor`.
    private let counts = Mutex<(partitions: [String: Int], at: ContinuousClock.Instant)?>(nil)
    private let countsKeptFor: Duration
    private let asked = Atomic<Int>(0)

    package init(configuration: KafkaClientConfiguration, countsKeptFor: Duration = .seconds(10), logger: Logger) {
        offsets = KafkaGroupOffsets(configuration: configuration, logger: logger)
        self.countsKeptFor = countsKeptFor
    }

    /// How many questions this has put to the brokers: for tests that a service at rest asks none.
    package var questionsAsked: Int { asked.load(ordering: .relaxed) }

    /// `group`'s committed offset on each partition of `topic`, in partition order; where it
    /// committed none, the partition's low watermark (it would start there). Two requests, or
    /// one when every partition has a committed offset.
    package func committed(group: String, topic: String) async throws -> [Int64] {
        try await run(group: group) { client, timeout in
            let partitions = try self.partitions(of: topic, client: client, timeout: timeout)
            let committed = try client.committedOffsets(partitions, timeoutMilliseconds: timeout)
            let uncommitted = partitions.filter { committed[$0] == nil }
            let low = try Dictionary(
                uniqueKeysWithValues: zip(
                    uncommitted, client.watermarks(of: uncommitted, timeoutMilliseconds: timeout).map(\.low)))
            return partitions.map { committed[$0] ?? low[$0] ?? 0 }
        }
    }

    /// The high watermark of each partition of `topic`, in partition order: one request a leader.
    package func ends(of topic: String, group: String) async throws -> [Int64] {
        try await run(group: group) { client, timeout in
            try client.highWatermarks(
                of: try self.partitions(of: topic, client: client, timeout: timeout), timeoutMilliseconds: timeout)
        }
    }

    /// `body` with `group`'s client. A failure forgets the partition counts: a topic made
    /// again with another count is read afresh.
    private func run<T: Sendable>(
        group: String, _ body: @escaping @Sendable (RDKafkaClient, Int32) throws -> T
    ) async throws -> T {
        asked.add(1, ordering: .relaxed)
        // Making a client blocks too (librdkafka starts its threads): off the cooperative pool.
        return try await offsets.configuration.runBlocking { [self] in
            let client = try clients.withLock { clients in
                if let client = clients[group] { return client }
                let client = try offsets.makeClient(group: group)
                clients[group] = client
                return client
            }
            do {
                return try body(client, offsets.timeoutMilliseconds)
            } catch {
                counts.withLock { $0 = nil }
                throw error
            }
        }
    }

    /// Every partition of `topic`, from the kept counts or the cluster's metadata.
    private func partitions(of topic: String, client: RDKafkaClient, timeout: Int32) throws -> [KafkaTopicPartition] {
        let kept = counts.withLock { counts -> Int? in
            guard let counts, ContinuousClock.now - counts.at < countsKeptFor else { return nil }
            return counts.partitions[topic]
        }
        let count: Int
        if let kept {
            count = kept
        } else {
            let metadata = try client.metadata(timeoutMilliseconds: timeout)
            counts.withLock { $0 = (metadata.partitionsByTopic, .now) }
            guard let read = metadata.partitionsByTopic[topic] else {
                throw KafkaError("topic \(topic) does not exist")
            }
            count = read
        }
        return (0..<count).map { KafkaTopicPartition(topic: topic, partition: Int32($0)) }
    }
}
