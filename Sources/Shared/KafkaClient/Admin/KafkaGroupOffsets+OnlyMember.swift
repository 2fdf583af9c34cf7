extension KafkaGroupOffsets {
    /// For brokers that cannot describe groups (the embedded one): the replay joins the group
    /// itself. If it is given every partition, no one else is in the group, and it commits the
    /// plan as the group's only member.
    func commitAsOnlyMember(_ plan: KafkaOffsetResetPlan, memberTopics: [String], joinTimeout: Duration) async throws {
        logger.info(
            "the broker cannot describe groups: joining the group to check it is empty",
            metadata: ["kafka.group": "\(plan.group)"])
        let member = try makeClient(group: plan.group, member: true)
        let topics = Array(Set(memberTopics + plan.rows.map(\.topicPartition.topic))).sorted()
        let deadline = ContinuousClock.now + joinTimeout
        let timeout = timeoutMilliseconds
        try await configuration.runBlocking {
            try Self.commitAsOnlyMember(plan, topics: topics, client: member, deadline: deadline, timeout: timeout)
        }
    }

    private static func commitAsOnlyMember(
        _ plan: KafkaOffsetResetPlan, topics: [String], client: RDKafkaClient, deadline: ContinuousClock.Instant,
        timeout: Int32
    ) throws {
        client.forwardEventsToConsumerQueue()
        var assigned = Set<KafkaTopicPartition>()
        defer {
            _ = client.close()
            if assigned.isEmpty { client.skipDestroyIfItAborts() }
        }
        let metadata = try client.metadata(timeoutMilliseconds: timeout)
        var everyPartition = Set<KafkaTopicPartition>()
        for topic in topics {
            for partition in 0..<(metadata.partitionsByTopic[topic] ?? 0) {
                everyPartition.insert(KafkaTopicPartition(topic: topic, partition: Int32(partition)))
            }
        }
        do {
            try client.subscribe(topics)
        } catch let error as KafkaError {
            throw KafkaError("cannot join group \(plan.group): \(error.message)", code: error.code)
        }
        while ContinuousClock.now < deadline {
            // Messages are not read: this member only takes the partitions and commits.
            client.serveEvents(timeoutMilliseconds: 100)
            assigned = client.assignment()
            if assigned == everyPartition { break }
        }
        guard assigned == everyPartition else {
            throw KafkaGroupBusy(
                group: plan.group,
                detail:
                    "other members hold partitions (this replay was given \(assigned.count) of \(everyPartition.count))"
            )
        }
        try client.commit(plan.rows.map { ($0.topicPartition, $0.target) })
    }
}
