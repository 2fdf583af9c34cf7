import CKafka

extension RDKafkaClient {
    /// Serves logs, statistics and rebalances from the consumer queue, which the poll loop reads.
    func forwardEventsToConsumerQueue() {
        rd_kafka_poll_set_consumer(handle)
    }

    /// Joins the group for `topics`.
    func subscribe(_ topics: [String]) throws {
        let error = RDKafkaTopicPartitionList.with(topics.map { (KafkaTopicPartition(topic: $0, partition: -1), nil) })
        {
            rd_kafka_subscribe(handle, $0)
        }
        guard error == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError("cannot subscribe to \(topics.joined(separator: ","))", rdError: error)
        }
    }

    /// The partitions this member holds now.
    func assignment() -> [KafkaTopicPartition] {
        var list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?
        guard rd_kafka_assignment(handle, &list) == RD_KAFKA_RESP_ERR_NO_ERROR, let list else { return [] }
        defer { rd_kafka_topic_partition_list_destroy(list) }
        return RDKafkaTopicPartitionList.topicPartitions(list)
    }

    /// Reads these partitions from these offsets (from the committed or reset offset where nil),
    /// outside any group's assignment.
    func assign(_ partitions: [(KafkaTopicPartition, Int64?)]) throws {
        let error = RDKafkaTopicPartitionList.with(partitions) { rd_kafka_assign(handle, $0) }
        guard error == RD_KAFKA_RESP_ERR_NO_ERROR else { throw KafkaError("cannot assign partitions", rdError: error) }
    }

    /// Stops reading every partition.
    func unassignAll() {
        _ = rd_kafka_assign(handle, nil)
    }

    /// Stops fetching these partitions until they are resumed.
    func pause(_ partitions: [KafkaTopicPartition]) {
        _ = RDKafkaTopicPartitionList.with(partitions.map { ($0, nil) }) { rd_kafka_pause_partitions(handle, $0) }
    }

    /// Fetches these partitions again.
    func resume(_ partitions: [KafkaTopicPartition]) {
        _ = RDKafkaTopicPartitionList.with(partitions.map { ($0, nil) }) { rd_kafka_resume_partitions(handle, $0) }
    }

    /// Waits up to `timeoutMilliseconds` for one message or event; a message is handed to `body`
    /// and freed after it. Errors delivered as messages are skipped.
    func pollConsumer<R>(timeoutMilliseconds: Int32, _ body: (RDKafkaMessage) throws -> R) rethrows -> R? {
        guard let raw = rd_kafka_consumer_poll(handle, timeoutMilliseconds) else { return nil }
        defer { rd_kafka_message_destroy(raw) }
        guard raw.pointee.err == RD_KAFKA_RESP_ERR_NO_ERROR else { return nil }
        return try body(RDKafkaMessage(raw))
    }

    /// Commits nothing, leaves the group and stops fetching.
    func closeConsumer() throws {
        let error = rd_kafka_consumer_close(handle)
        guard error == RD_KAFKA_RESP_ERR_NO_ERROR else { throw KafkaError("close", rdError: error) }
    }

    /// The group's member count and state; nil when the broker cannot describe groups.
    func describeGroup(_ group: String, timeoutMilliseconds: Int32) throws -> (members: Int, state: String)? {
        var list: UnsafePointer<rd_kafka_group_list>?
        let error = rd_kafka_list_groups(handle, group, &list, timeoutMilliseconds)
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
}
