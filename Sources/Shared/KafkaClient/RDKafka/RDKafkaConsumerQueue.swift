import CKafka

/// The consumer group's queue, read in batches by the poll loop's thread.
final class RDKafkaConsumerQueue {
    private let queue: OpaquePointer
    private let buffer: UnsafeMutablePointer<UnsafeMutablePointer<rd_kafka_message_t>?>
    private let capacity: Int
    /// Topic names by topic handle: converting the C string once per topic, not per message.
    private var topicNames: [OpaquePointer: String] = [:]

    init(client: RDKafkaClient, capacity: Int = 2_048) throws {
        guard let queue = rd_kafka_queue_get_consumer(client.handle) else {
            throw KafkaError("consumer has no group queue")
        }
        self.queue = queue
        self.capacity = capacity
        self.buffer = .allocate(capacity: capacity)
    }

    deinit {
        buffer.deallocate()
        rd_kafka_queue_destroy(queue)
    }

    /// Waits up to `timeoutMilliseconds` for messages, and returns those that came, in queue
    /// order. Errors delivered as messages go to `onError`.
    func next(timeoutMilliseconds: Int32, onError: (KafkaError) -> Void) -> [KafkaConsumerMessage] {
        let count = rd_kafka_consume_batch_queue(queue, timeoutMilliseconds, buffer, capacity)
        guard count > 0 else { return [] }
        var messages: [KafkaConsumerMessage] = []
        messages.reserveCapacity(count)
        for case let raw? in UnsafeMutableBufferPointer(start: buffer, count: count) {
            defer { rd_kafka_message_destroy(raw) }
            guard raw.pointee.err == RD_KAFKA_RESP_ERR_NO_ERROR else {
                onError(KafkaError("consume", rdError: raw.pointee.err))
                continue
            }
            let message = RDKafkaMessage(raw)
            let topic: String
            if let handle = message.topicHandle, let name = topicNames[handle] {
                topic = name
            } else {
                topic = message.topicName
                if let handle = message.topicHandle { topicNames[handle] = topic }
            }
            messages.append(message.converted(topic: topic))
        }
        return messages
    }
}
