import CKafka

extension RDKafkaClient {
    /// Serves logs, statistics and rebalances from the consumer queue, which the poll loop reads.
    func forwardEventsToConsumerQueue() {
        rd_kafka_poll_set_consumer(handle)
    }

    /// Joins the group for `topics`.
    func subscribe(_ topics: [String]) throws {
        let result = RDKafkaTopicPartitionList.with(topics.map { (KafkaTopicPartition(topic: $0, partition: -1), nil) })
        {
            rd_kafka_subscribe(handle, $0)
        }
        guard result == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError("cannot subscribe to \(topics.joined(separator: ","))", rdError: result)
        }
    }

    /// The queue the group's messages arrive on; nil for a handle that is not a group consumer.
    func consumerQueue() -> RDKafkaConsumerQueue? {
        rd_kafka_queue_get_consumer(handle).map { RDKafkaConsumerQueue(queue: $0) }
    }

    /// Waits up to `timeoutMilliseconds` for one message of the assigned partitions, which are
    /// all of `topic`. Messages that carry an error are dropped: librdkafka retries what can be.
    func pollMessage(of topic: String, timeoutMilliseconds: Int32) -> KafkaConsumerMessage? {
        guard let message = rd_kafka_consumer_poll(handle, timeoutMilliseconds) else { return nil }
        defer { rd_kafka_message_destroy(message) }
        guard message.pointee.err == RD_KAFKA_RESP_ERR_NO_ERROR else { return nil }
        return KafkaConsumerMessage(message, topic: topic)
    }

    /// Serves rebalances and logs for up to `timeoutMilliseconds`, for a member that reads
    /// nothing: a message that arrives meanwhile is dropped unread.
    func serveEvents(timeoutMilliseconds: Int32) {
        if let message = rd_kafka_consumer_poll(handle, timeoutMilliseconds) { rd_kafka_message_destroy(message) }
    }

    /// Reads `entries` (partition, first offset) outside any group, replacing what was assigned.
    func assign(_ entries: [(KafkaTopicPartition, Int64?)]) throws {
        let result = RDKafkaTopicPartitionList.with(entries) { rd_kafka_assign(handle, $0) }
        guard result == RD_KAFKA_RESP_ERR_NO_ERROR else {
            let names = Set(entries.map(\.0.topic)).sorted().joined(separator: ",")
            throw KafkaError("cannot read \(names)", rdError: result)
        }
    }

    /// Gives up every partition assigned.
    func unassign() {
        _ = rd_kafka_assign(handle, nil)
    }

    /// The partitions assigned to this handle now.
    func assignment() -> Set<KafkaTopicPartition> {
        var list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?
        guard rd_kafka_assignment(handle, &list) == RD_KAFKA_RESP_ERR_NO_ERROR, let list else { return [] }
        defer { rd_kafka_topic_partition_list_destroy(list) }
        return Set(RDKafkaTopicPartitionList.topicPartitions(list))
    }

    /// Hands offsets to librdkafka, which commits them in the background.
    func storeOffsets(_ entries: [(KafkaTopicPartition, Int64?)]) -> KafkaError? {
        let result = RDKafkaTopicPartitionList.with(entries) { rd_kafka_offsets_store(handle, $0) }
        return result == RD_KAFKA_RESP_ERR_NO_ERROR ? nil : KafkaError("store", rdError: result)
    }

    /// Commits every stored offset now and waits for the broker's answer. Nothing to commit
    /// is not an error.
    func commitStoredOffsets() -> KafkaError? {
        let result = rd_kafka_commit(handle, nil, 0)
        guard result != RD_KAFKA_RESP_ERR_NO_ERROR && result != RD_KAFKA_RESP_ERR__NO_OFFSET else { return nil }
        return KafkaError("commit", rdError: result)
    }

    /// Stops fetching `partitions`; librdkafka drops what it prefetched of them.
    func pause(_ partitions: [KafkaTopicPartition]) {
        _ = RDKafkaTopicPartitionList.with(partitions.map { ($0, nil) }) { rd_kafka_pause_partitions(handle, $0) }
    }

    func resume(_ partitions: [KafkaTopicPartition]) {
        _ = RDKafkaTopicPartitionList.with(partitions.map { ($0, nil) }) { rd_kafka_resume_partitions(handle, $0) }
    }

    /// Moves where assigned partitions fetch next, without waiting.
    func seek(_ positions: [(KafkaTopicPartition, Int64?)], _ context: String) -> KafkaError? {
        RDKafkaTopicPartitionList.with(positions) { rd_kafka_seek_partitions(handle, $0, 0) }.map {
            KafkaError(context, consuming: $0)
        }
    }

    /// Leaves the group after the last rebalance is served.
    func close() -> KafkaError? {
        let result = rd_kafka_consumer_close(handle)
        return result == RD_KAFKA_RESP_ERR_NO_ERROR ? nil : KafkaError("close", rdError: result)
    }
}
