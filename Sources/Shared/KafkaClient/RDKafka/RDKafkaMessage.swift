import CKafka

/// A message librdkafka delivered, borrowed until its owner frees it.
struct RDKafkaMessage {
    private let raw: UnsafeMutablePointer<rd_kafka_message_t>

    init(_ raw: UnsafeMutablePointer<rd_kafka_message_t>) {
        self.raw = raw
    }

    var partition: Int32 { raw.pointee.partition }
    var offset: Int64 { raw.pointee.offset }
    /// The topic's handle: the same for every message of one topic, so a cheap key.
    var topicHandle: OpaquePointer? { raw.pointee.rkt }
    var topicName: String { String(cString: rd_kafka_topic_name(raw.pointee.rkt)) }

    /// Milliseconds since the epoch, when the message has a timestamp.
    var timestampMilliseconds: Int64? {
        var type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE
        let timestamp = rd_kafka_message_timestamp(raw, &type)
        return type == RD_KAFKA_TIMESTAMP_NOT_AVAILABLE ? nil : timestamp
    }

    /// The message as a Swift value, its bytes copied.
    func converted(topic: String) -> KafkaConsumerMessage {
        let message = raw.pointee
        let value = message.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: message.len)) } ?? []
        let key = message.key.map { Array(UnsafeRawBufferPointer(start: $0, count: message.key_len)) }
        var headers: [KafkaHeader] = []
        var rawHeaders: OpaquePointer?
        if rd_kafka_message_headers(raw, &rawHeaders) == RD_KAFKA_RESP_ERR_NO_ERROR, let rawHeaders {
            var index = 0
            var name: UnsafePointer<CChar>?
            var headerValue: UnsafeRawPointer?
            var size = 0
            while rd_kafka_header_get_all(rawHeaders, index, &name, &headerValue, &size) == RD_KAFKA_RESP_ERR_NO_ERROR {
                let bytes = headerValue.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) }
                headers.append(KafkaHeader(name.map { String(cString: $0) } ?? "", bytes))
                index += 1
            }
        }
        return KafkaConsumerMessage(
            topic: topic, partition: message.partition, offset: message.offset, key: key, value: value,
            headers: headers, timestampMilliseconds: timestampMilliseconds)
    }
}
