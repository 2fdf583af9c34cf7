import CKafka
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
        let rows = try await configuration.runBlocking {
            let metadata = try client.metadata(timeoutMilliseconds: timeout)
            var partitions: [KafkaTopicPartition] = []
            for topic in topics {
                guard let count = metadata.partitionsByTopic[topic] else {
                    throw KafkaError("topic \(topic) does not exist")
                }
                partitions += (0..<count).map { KafkaTopicPartition(topic: topic, partition: Int32($0)) }
            }
            let committed = try Self.committed(client: client, partitions, timeout: timeout)
            return try partitions.map { topicPartition in
                var low: Int64 = 0
                var high: Int64 = 0
                let error = rd_kafka_query_watermark_offsets(
                    client.handle, topicPartition.topic, topicPartition.partition, &low, &high, timeout)
                guard error == RD_KAFKA_RESP_ERR_NO_ERROR else {
                    throw KafkaError("cannot read the offsets of \(topicPartition)", rdError: error)
                }
                let current = committed[topicPartition]
                let wanted: Int64 =
                    switch target {
                    case .earliest: low
                    case .offset(let offset): offset
                    // Saturating: a shift past either end only clamps to it.
                    case .shift(let count):
                        (current ?? low).addingReportingOverflow(count).overflow
                            ? (count > 0 ? Int64.max : Int64.min) : (current ?? low) + count
                    case .dateTime(let date):
                        try Self.offset(
                            at: date, topicPartition, low: low, high: high, client: client,
                            configuration: configuration, timeout: timeout)
                    }
                return KafkaOffsetResetPlan.Row(
                    topicPartition: topicPartition, low: low, high: high, committed: current,
                    target: min(max(wanted, low), high))
            }
        }
        return KafkaOffsetResetPlan(group: group, target: target, rows: rows)
    }

    /// Commits the plan's targets. Throws ``KafkaGroupBusy`` while the group has live members.
    /// `memberTopics` are the topics the group's members subscribe to (used on brokers that
    /// cannot describe groups, where the replay joins the group to find out who is in it).
    package func execute(_ plan: KafkaOffsetResetPlan, memberTopics: [String], joinTimeout: Duration) async throws {
        let client = try makeClient(group: plan.group)
        let timeout = timeoutMilliseconds
        let described = try await configuration.runBlocking {
            try Self.describe(group: plan.group, client: client, timeout: timeout)
        }
        if let described {
            guard described.members == 0 else {
                throw KafkaGroupBusy(
                    group: plan.group, detail: "\(described.members) live members (\(described.state))")
            }
            try await configuration.runBlocking {
                try Self.commit(plan.rows, client: client)
            }
            return
        }
        logger.info(
            "the broker cannot describe groups: joining the group to check it is empty",
            metadata: ["kafka.group": "\(plan.group)"])
        let member = try makeClient(group: plan.group, member: true)
        let subscribed = Array(Set(memberTopics + plan.rows.map(\.topicPartition.topic))).sorted()
        let deadline = ContinuousClock.now + joinTimeout
        try await configuration.runBlocking {
            try Self.commitAsOnlyMember(plan, topics: subscribed, client: member, deadline: deadline, timeout: timeout)
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
        return try RDKafkaClient(
            type: RD_KAFKA_CONSUMER, properties: properties, callbacks: RDKafkaCallbacks(logger: logger))
    }

    static func committed(
        client: RDKafkaClient, _ partitions: [KafkaTopicPartition], timeout: Int32
    ) throws -> [KafkaTopicPartition: Int64] {
        try RDKafkaTopicPartitionList.with(partitions.map { ($0, nil) }) { list in
            let error = rd_kafka_committed(client.handle, list, timeout)
            guard error == RD_KAFKA_RESP_ERR_NO_ERROR else {
                throw KafkaError("cannot read committed offsets", rdError: error)
            }
            var result: [KafkaTopicPartition: Int64] = [:]
            for index in 0..<Int(list.pointee.cnt) where list.pointee.elems[index].offset >= 0 {
                result[partitions[index]] = list.pointee.elems[index].offset
            }
            return result
        }
    }

    /// The group's member count and state; nil when the broker cannot describe groups.
    static func describe(group: String, client: RDKafkaClient, timeout: Int32) throws -> (members: Int, state: String)?
    {
        var list: UnsafePointer<rd_kafka_group_list>?
        let error = rd_kafka_list_groups(client.handle, group, &list, timeout)
        if error == RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE { return nil }
        guard error == RD_KAFKA_RESP_ERR_NO_ERROR, let list else {
            throw KafkaError("cannot describe group \(group)", rdError: error)
        }
        defer { rd_kafka_group_list_destroy(list) }
        for index in 0..<Int(list.pointee.group_cnt) where String(cString: list.pointee.groups[index].group) == group {
            let info = list.pointee.groups[index]
            return (Int(info.member_cnt), info.state.map { String(cString: $0) } ?? "unknown")
        }
        return (0, "Dead")
    }

    private static func commit(_ rows: [KafkaOffsetResetPlan.Row], client: RDKafkaClient) throws {
        try RDKafkaTopicPartitionList.with(rows.map { ($0.topicPartition, $0.target) }) { list in
            let error = rd_kafka_commit(client.handle, list, 0)
            guard error == RD_KAFKA_RESP_ERR_NO_ERROR else { throw KafkaError("cannot commit offsets", rdError: error) }
            for index in 0..<Int(list.pointee.cnt) where list.pointee.elems[index].err != RD_KAFKA_RESP_ERR_NO_ERROR {
                throw KafkaError(
                    "cannot commit offsets of \(rows[index].topicPartition)", rdError: list.pointee.elems[index].err)
            }
        }
    }

    private static func commitAsOnlyMember(
        _ plan: KafkaOffsetResetPlan, topics: [String], client: RDKafkaClient, deadline: ContinuousClock.Instant,
        timeout: Int32
    ) throws {
        let handle = client.handle
        rd_kafka_poll_set_consumer(handle)
        var assigned = Set<KafkaTopicPartition>()
        defer {
            _ = rd_kafka_consumer_close(handle)
            if assigned.isEmpty { client.skipDestroyIfItAborts() }
        }
        let metadata = try client.metadata(timeoutMilliseconds: timeout)
        var everyPartition = Set<KafkaTopicPartition>()
        for topic in topics {
            for partition in 0..<(metadata.partitionsByTopic[topic] ?? 0) {
                everyPartition.insert(KafkaTopicPartition(topic: topic, partition: Int32(partition)))
            }
        }
        let subscribeError = RDKafkaTopicPartitionList.with(
            topics.map { (KafkaTopicPartition(topic: $0, partition: -1), nil) }
        ) {
            rd_kafka_subscribe(handle, $0)
        }
        guard subscribeError == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError("cannot join group \(plan.group)", rdError: subscribeError)
        }
        while ContinuousClock.now < deadline {
            // Messages are not read: this member only takes the partitions and commits.
            if let message = rd_kafka_consumer_poll(handle, 100) { rd_kafka_message_destroy(message) }
            var list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?
            if rd_kafka_assignment(handle, &list) == RD_KAFKA_RESP_ERR_NO_ERROR, let list {
                assigned = Set(RDKafkaTopicPartitionList.topicPartitions(list))
                rd_kafka_topic_partition_list_destroy(list)
            }
            if assigned == everyPartition { break }
        }
        guard assigned == everyPartition else {
            throw KafkaGroupBusy(
                group: plan.group,
                detail:
                    "other members hold partitions (this replay was given \(assigned.count) of \(everyPartition.count))"
            )
        }
        try commit(plan.rows, client: client)
    }

    /// The first offset written at or after `date`. Brokers answer this lookup; the embedded
    /// one does not (it says "none" for every time), so then the messages themselves are read.
    private static func offset(
        at date: Date, _ topicPartition: KafkaTopicPartition, low: Int64, high: Int64, client: RDKafkaClient,
        configuration: KafkaClientConfiguration, timeout: Int32
    ) throws -> Int64 {
        guard low < high else { return high }
        let milliseconds = Int64(date.timeIntervalSince1970 * 1_000)
        let answered = try RDKafkaTopicPartitionList.with([(topicPartition, milliseconds)]) { list in
            let error = rd_kafka_offsets_for_times(client.handle, list, timeout)
            guard error == RD_KAFKA_RESP_ERR_NO_ERROR else {
                throw KafkaError("cannot look up offsets by time", rdError: error)
            }
            return list.pointee.elems[0].offset
        }
        if answered >= 0 { return answered }
        // "None at or after": true only if the newest message is older.
        let reader = TimestampReader(configuration: configuration, callbacks: client.callbacks, timeout: timeout)
        guard let newest = try reader.timestamp(of: high - 1, topicPartition), newest >= milliseconds else {
            return high
        }
        var (lower, upper) = (low, high - 1)
        while lower < upper {
            let middle = lower + (upper - lower) / 2
            let stamp = try reader.timestamp(of: middle, topicPartition) ?? 0
            if stamp >= milliseconds { upper = middle } else { lower = middle + 1 }
        }
        return lower
    }
}

/// A replay refused because the group is in use.
package struct KafkaGroupBusy: Error, CustomStringConvertible {
    package let group: String
    package let detail: String

    package var description: String {
        "group \(group) has live members: \(detail); stop its workers, then replay"
    }
}
