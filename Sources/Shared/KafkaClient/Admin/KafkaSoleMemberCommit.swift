/// Commits a group's offsets by joining it, for brokers that cannot describe groups (the
/// embedded one): if this member is given every partition, no one else is in the group, and
/// it commits as the group's only member.
struct KafkaSoleMemberCommit {
    let client: RDKafkaClient
    let group: String
    /// The topics the group's members subscribe to: every partition of them must come to us.
    let topics: [String]

    /// Joins, waits until `deadline` to be given every partition, commits, leaves.
    /// Throws ``KafkaGroupBusy`` when others keep some.
    func commit(
        _ offsets: [(KafkaTopicPartition, Int64)], deadline: ContinuousClock.Instant, timeoutMilliseconds: Int32
    )
        throws
    {
        client.forwardEventsToConsumerQueue()
        var assigned = Set<KafkaTopicPartition>()
        defer {
            try? client.closeConsumer()
            if assigned.isEmpty { client.skipDestroyIfItAborts() }
        }
        let metadata = try client.metadata(timeoutMilliseconds: timeoutMilliseconds)
        var everyPartition = Set<KafkaTopicPartition>()
        for topic in topics {
            for partition in 0..<(metadata.partitionsByTopic[topic] ?? 0) {
                everyPartition.insert(KafkaTopicPartition(topic: topic, partition: Int32(partition)))
            }
        }
        do {
            try client.subscribe(topics)
        } catch let error as KafkaError {
            throw KafkaError("cannot join group \(group): \(error.message)", code: error.code)
        }
        while ContinuousClock.now < deadline {
            // Messages are not read: this member only takes the partitions and commits.
            _ = client.pollConsumer(timeoutMilliseconds: 100) { _ in () }
            assigned = Set(client.assignment())
            if assigned == everyPartition { break }
        }
        guard assigned == everyPartition else {
            throw KafkaGroupBusy(
                group: group,
                detail:
                    "other members hold partitions (this replay was given \(assigned.count) of \(everyPartition.count))"
            )
        }
        try client.commit(offsets)
    }
}
