/// Consecutive messages of one partition, in offset order, with the lease they were read under.
///
/// Call ``release()`` once every message is handled or skipped: until then the batch counts
/// against the partition's buffer limit, and a full buffer pauses the partition.
package struct KafkaMessageBatch: Sendable {
    package let lease: KafkaPartitionLease
    package let messages: [KafkaConsumerMessage]
    /// Key and value bytes of all the messages.
    package let byteCount: Int

    init(lease: KafkaPartitionLease, messages: [KafkaConsumerMessage]) {
        self.lease = lease
        self.messages = messages
        self.byteCount = messages.reduce(0) { $0 + $1.value.count + ($1.key?.count ?? 0) }
        lease.addBuffered(messages: messages.count, bytes: byteCount)
    }

    package var topicPartition: KafkaTopicPartition { lease.topicPartition }

    /// Frees the batch's place in the partition's buffer.
    package func release() {
        lease.removeBuffered(messages: messages.count, bytes: byteCount)
    }
}
