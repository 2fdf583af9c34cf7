import Foundation
import Logging

/// Reads and moves a consumer group's committed offsets: for status reports and replays.
///
/// A plan (``KafkaOffsetResetPlan``) is made from what the broker says, and changes nothing;
/// executing it commits (`KafkaGroupOffsets+Commit.swift`). Moving offsets needs a group
/// without live members; the embedded broker cannot say whether a group has any, which
/// `KafkaGroupOffsets+OnlyMember.swift` works around.
package struct KafkaGroupOffsets: Sendable {
    let configuration: KafkaClientConfiguration
    let logger: Logger
    let timeoutMilliseconds: Int32 = 10_000

    package init(configuration: KafkaClientConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Committed offset and watermarks of every partition of `topics` for `group`.
    package func positions(group: String, topics: [String]) async throws -> [KafkaOffsetResetPlan.Row] {
        try await plan(group: group, topics: topics, target: .shift(0)).rows
    }

    /// What moving `group` on `topics` to `target` would do. Changes nothing.
    package func plan(group: String, topics: [String], target: KafkaOffsetTarget) async throws -> KafkaOffsetResetPlan {
        let client = try makeClient(group: group)
        let timeout = timeoutMilliseconds
        let configuration = self.configuration
        return try await configuration.runBlocking {
            let positions = try Self.positions(of: topics, client: client, timeout: timeout)
            return try KafkaOffsetResetPlan(group: group, target: target, positions: positions) { position, date in
                try Self.offset(at: date, position, client: client, configuration: configuration, timeout: timeout)
            }
        }
    }

    static func positions(of topics: [String], client: RDKafkaClient, timeout: Int32) throws
        -> [KafkaOffsetResetPlan.Position]
    {
        let metadata = try client.metadata(timeoutMilliseconds: timeout)
        var partitions: [KafkaTopicPartition] = []
        for topic in topics {
            guard let count = metadata.partitionsByTopic[topic] else {
                throw KafkaError("topic \(topic) does not exist")
            }
            partitions += (0..<count).map { KafkaTopicPartition(topic: topic, partition: Int32($0)) }
        }
        let committed = try client.committedOffsets(partitions, timeoutMilliseconds: timeout)
        let watermarks = try client.watermarks(of: partitions, timeoutMilliseconds: timeout)
        return zip(partitions, watermarks).map { topicPartition, watermarks in
            KafkaOffsetResetPlan.Position(
                topicPartition: topicPartition, low: watermarks.low, high: watermarks.high,
                committed: committed[topicPartition])
        }
    }

    /// A client of `group` that never commits by itself; a `member` joins the group.
    func makeClient(group: String, member: Bool = false) throws -> RDKafkaClient {
        var defaults = [("enable.auto.commit", "false"), ("enable.partition.eof", "false")]
        if member {
            // A short session: a replay that dies must not hold the group for long.
            defaults += [("partition.assignment.strategy", "cooperative-sticky"), ("session.timeout.ms", "6000")]
        }
        let properties = configuration.clientProperties(
            clientIDSuffix: "offsets", defaults: defaults, fixed: [("group.id", group)])
        return try RDKafkaClient(type: .consumer, properties: properties, callbacks: RDKafkaCallbacks(logger: logger))
    }
}
