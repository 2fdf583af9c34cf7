extension KafkaGroupOffsets {
    /// Commits the plan's targets. Throws ``KafkaGroupBusy`` while the group has live members.
    /// `memberTopics` are the topics the group's members subscribe to (used on brokers that
    /// cannot describe groups, where the replay joins the group to find out who is in it).
    package func execute(_ plan: KafkaOffsetResetPlan, memberTopics: [String], joinTimeout: Duration) async throws {
        let client = try makeClient(group: plan.group)
        let timeout = timeoutMilliseconds
        let described = try await configuration.runBlocking {
            try client.describeGroup(plan.group, timeoutMilliseconds: timeout)
        }
        guard let described else {
            // Apache Kafka describes groups and takes commits from outside an empty one; the
            // embedded broker does neither.
            try await commitAsOnlyMember(plan, memberTopics: memberTopics, joinTimeout: joinTimeout)
            return
        }
        guard described.members == 0 else {
            throw KafkaGroupBusy(group: plan.group, detail: "\(described.members) live members (\(described.state))")
        }
        try await configuration.runBlocking {
            try client.commit(plan.rows.map { ($0.topicPartition, $0.target) })
        }
    }
}
