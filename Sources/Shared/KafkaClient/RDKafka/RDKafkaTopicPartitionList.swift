import CKafka

/// Conversions between `rd_kafka_topic_partition_list_t` and Swift values.
enum RDKafkaTopicPartitionList {
    static func topicPartitions(_ list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) -> [KafkaTopicPartition]
    {
        (0..<Int(list.pointee.cnt)).map { index in
            let element = list.pointee.elems[index]
            return KafkaTopicPartition(topic: String(cString: element.topic), partition: element.partition)
        }
    }

    /// Calls `body` with a temporary list holding `entries` (offset may be nil).
    static func with<R, E: Error>(
        _ entries: [(KafkaTopicPartition, Int64?)],
        _ body: (UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) throws(E) -> R
    ) throws(E) -> R {
        let list = rd_kafka_topic_partition_list_new(Int32(entries.count))!
        defer { rd_kafka_topic_partition_list_destroy(list) }
        for (topicPartition, offset) in entries {
            let element = rd_kafka_topic_partition_list_add(list, topicPartition.topic, topicPartition.partition)!
            if let offset { element.pointee.offset = offset }
        }
        return try body(list)
    }
}
