import CKafka

extension KafkaConsumerMessage {
    /// Copies what the application needs out of a message librdkafka still owns.
    init(_ message: UnsafeMutablePointer<rd_kafka_message_t>, topic: String) {
        let raw = message.pointee
        let value = raw.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: raw.len)) } ?? []
        let key = raw.key.map { Array(UnsafeRawBufferPointer(start: $0, count: raw.key_len)) }
        var headers: [KafkaHeader] = []
        var rawHeaders: OpaquePointer?
        if rd_kafka_message_headers(message, &rawHeaders) == RD_KAFKA_RESP_ERR_NO_ERROR, let rawHeaders {
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
        var timestampType = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE
        let timestamp = rd_kafka_message_timestamp(message, &timestampType)
        self.init(
            topic: topic, partition: raw.partition, offset: raw.offset, key: key, value: value, headers: headers,
            timestampMilliseconds: timestampType == RD_KAFKA_TIMESTAMP_NOT_AVAILABLE ? nil : timestamp,
            isTombstone: raw.payload == nil)
    }
}
