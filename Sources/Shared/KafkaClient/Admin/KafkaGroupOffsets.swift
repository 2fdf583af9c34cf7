import Foundation
import Logging

/// Reads and moves a consumer group's committed offsets: for status reports and replays.
///
/// Moving offsets needs a group without live members. Apache Kafka answers DescribeGroups
/// and accepts commits from outside an empty group. The embedded broker does neither, so
/// there the replay joins the group itself: if it is given every partition, no one else is
/// in the group, and it commits the new offsets as the group's only member.
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
            let partitions = try Self.partitionOffsets(of: topics, client: client, timeout: timeout)
            let reader = TimestampReader(configuration: configuration, callbacks: client.callbacks, timeout: timeout)
            return try KafkaOffsetResetPlan(group: group, target: target, partitions: partitions) { date, partition in
                guard partition.low < partition.high else { return partition.high }
                let milliseconds = Int64(date.timeIntervalSince1970 * 1_000)
                if let answered = try client.offset(
                    atMilliseconds: milliseconds, partition.topicPartition, timeoutMilliseconds: timeout)
                {
                    return answered
                }
                // "None at or after" is true only if the newest message is older; the embedded
                // broker says it for every time, so the messages themselves are read.
                return try reader.firstOffset(
                    atOrAfter: milliseconds, partition.topicPartition, low: partition.low, high: partition.high)
            }
        }
    }

    /// Commits the plan's targets. Throws ``KafkaGroupBusy`` while the group has live members.
    /// `memberTopics` are the topics the group's members subscribe to (used on brokers that
    /// cannot describe groups, where the replay joins the group to find out who is in it).
    package func execute(_ plan: KafkaOffsetResetPlan, memberTopics: [String], joinTimeout: Duration) async throws {
        let client = try makeClient(group: plan.group)
        let timeout = timeoutMilliseconds
        let offsets = plan.rows.map { ($0.topicPartition, $0.target) }
        let described = try await configuration.runBlocking {
            try client.describeGroup(plan.group, timeoutMilliseconds: timeout)
        }
        if let described {
            guard described.members == 0 else {
                throw KafkaGroupBusy(
                    group: plan.group, detail: "\(described.members) live members (\(described.state))")
            }
            try await configuration.runBlocking { try client.commit(offsets) }
            return
        }
        logger.info(
            "the broker cannot describe groups: joining the group to check it is empty",
            metadata: ["kafka.group": "\(plan.group)"])
        let member = KafkaSoleMemberCommit(
            client: try makeClient(group: plan.group, member: true), group: plan.group,
            topics: Array(Set(memberTopics + plan.rows.map(\.topicPartition.topic))).sorted())
        let deadline = ContinuousClock.now + joinTimeout
        try await configuration.runBlocking {
            try member.commit(offsets, deadline: deadline, timeoutMilliseconds: timeout)
        }
    }

    private func makeClient(group: String, member: Bool = false) throws -> RDKafkaClient {
        var defaults = [("enable.auto.commit", "false"), ("enable.partition.eof", "false")]
        if member {
            // A short session: a replay that dies must not hold the group for long.
            defaults += [("partition.assignment.strategy", "cooperative-sticky"), ("session.timeout.ms", "6000")]
        }
        let properties = configuration.clientProperties(
            clientIDSuffix: "offsets", defaults: defaults, fixed: [("group.id", group)])
        return try RDKafkaClient(kind: .consumer, properties: properties, callbacks: RDKafkaCallbacks(logger: logger))
    }

    /// Every partition of `topics`: its watermarks and the group's committed offset.
    private static func partitionOffsets(
        of topics: [String], client: RDKafkaClient, timeout: Int32
    ) throws -> [KafkaOffsetResetPlan.PartitionOffsets] {
        let metadata = try client.metadata(timeoutMilliseconds: timeout)
        var partitions: [KafkaTopicPartition] = []
        for topic in topics {
            guard let count = metadata.partitionsByTopic[topic] else {
                throw KafkaError("topic \(topic) does not exist")
            }
            partitions += (0..<count).map { KafkaTopicPartition(topic: topic, partition: Int32($0)) }
        }
        let committed = try client.committedOffsets(partitions, timeoutMilliseconds: timeout)
        return try partitions.map { topicPartition in
            let (low, high) = try client.watermarks(topicPartition, timeoutMilliseconds: timeout)
            return KafkaOffsetResetPlan.PartitionOffsets(
                topicPartition: topicPartition, low: low, high: high, committed: committed[topicPartition])
        }
    }
}

/// A replay refused because the group is in use.
package struct KafkaGroupBusy: Error, CustomStringConvertible {
    let group: String
    let detail: String

    package var description: String {
        "group \(group) has live members: \(detail); stop its workers, then replay"
    }
}
