import CKafka

/// A group consumer's message queue, read in batches by the consumer's poll thread alone.
final class RDKafkaConsumerQueue {
    private let queue: OpaquePointer
    private let buffer: UnsafeMutablePointer<UnsafeMutablePointer<rd_kafka_message_t>?>
    private let capacity = 2_048

    init(queue: OpaquePointer) {
        self.queue = queue
        self.buffer = .allocate(capacity: capacity)
    }

    deinit {
        buffer.deallocate()
        rd_kafka_queue_destroy(queue)
    }

    /// Waits up to `timeoutMilliseconds` for the first message, then takes whatever else is
    /// already queued; returns what arrived, in order. Messages that carry an error are handed
    /// to `onError` instead.
    func consumeBatch(timeoutMilliseconds: Int32, onError: (KafkaError) -> Void) -> [KafkaConsumerMessage] {
        // `rd_kafka_consume_batch_queue` waits its whole timeout unless the batch fills, so
        // one new page waited the full timeout at every stage: wait for one message alone,
        // then drain without waiting.
        guard let first = rd_kafka_consume_queue(queue, timeoutMilliseconds) else { return [] }
        buffer[0] = first
        let more = rd_kafka_consume_batch_queue(queue, 0, buffer + 1, capacity - 1)
        let count = 1 + max(more, 0)
        var messages: [KafkaConsumerMessage] = []
        messages.reserveCapacity(count)
        // One name per topic handle: the batch's messages share their topics' strings.
        var topicNames: [OpaquePointer: String] = [:]
        for case let message? in UnsafeMutableBufferPointer(start: buffer, count: count) {
            defer { rd_kafka_message_destroy(message) }
            let raw = message.pointee
            guard raw.err == RD_KAFKA_RESP_ERR_NO_ERROR else {
                onError(KafkaError("consume", rdError: raw.err))
                continue
            }
            let topic: String
            if let name = topicNames[raw.rkt] {
                topic = name
            } else {
                topic = String(cString: rd_kafka_topic_name(raw.rkt))
                topicNames[raw.rkt] = topic
            }
            messages.append(KafkaConsumerMessage(message, topic: topic))
        }
        return messages
    }
}
