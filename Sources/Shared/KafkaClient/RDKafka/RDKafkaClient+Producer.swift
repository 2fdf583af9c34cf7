import CKafka

extension RDKafkaClient {
    /// Serves delivery reports and other events for up to `timeoutMilliseconds`.
    func poll(timeoutMilliseconds: Int32) {
        rd_kafka_poll(handle, timeoutMilliseconds)
    }

    /// Waits up to `timeoutMilliseconds` for every queued record to be delivered.
    /// Returns the error, with how many records are left, when some are not.
    func flush(timeoutMilliseconds: Int32) -> (error: KafkaError, queued: Int32)? {
        let error = rd_kafka_flush(handle, timeoutMilliseconds)
        guard error != RD_KAFKA_RESP_ERR_NO_ERROR else { return nil }
        return (KafkaError("flush", rdError: error), rd_kafka_outq_len(handle))
    }

    /// Enqueues `record`; `waiter` hears of its delivery. Returns the error when librdkafka
    /// refuses it (the waiter then hears nothing of it).
    func produce(_ record: KafkaProducerRecord, waiter: DeliveryWaiter) -> KafkaError? {
        // The delivery report callback takes this reference back.
        let opaque = Unmanaged.passRetained(waiter).toOpaque()
        let code = produce(record, opaque: opaque)
        guard code != RD_KAFKA_RESP_ERR_NO_ERROR else { return nil }
        Unmanaged<DeliveryWaiter>.fromOpaque(opaque).release()
        return KafkaError("cannot produce to \(record.topic)", rdError: code)
    }

    private func produce(_ record: KafkaProducerRecord, opaque: UnsafeMutableRawPointer) -> rd_kafka_resp_err_t {
        let headers: OpaquePointer? = record.headers.isEmpty ? nil : rd_kafka_headers_new(record.headers.count)
        for header in record.headers {
            if let value = header.value {
                _ = value.withUnsafeBytes { rd_kafka_header_add(headers, header.name, -1, $0.baseAddress, $0.count) }
            } else {
                _ = rd_kafka_header_add(headers, header.name, -1, nil, 0)
            }
        }
        let error: OpaquePointer? = record.topic.withCString { topic in
            record.value.withUnsafeBytes { value in
                withKeyBytes(record.key) { key in
                    var fields: [rd_kafka_vu_t] = []
                    fields.reserveCapacity(6)
                    var field = rd_kafka_vu_t()
                    field.vtype = RD_KAFKA_VTYPE_TOPIC
                    field.u.cstr = topic
                    fields.append(field)
                    field = rd_kafka_vu_t()
                    field.vtype = RD_KAFKA_VTYPE_VALUE
                    field.u.mem.ptr = record.isTombstone ? nil : UnsafeMutableRawPointer(mutating: value.baseAddress)
                    field.u.mem.size = record.isTombstone ? 0 : value.count
                    fields.append(field)
                    if let key {
                        field = rd_kafka_vu_t()
                        field.vtype = RD_KAFKA_VTYPE_KEY
                        field.u.mem.ptr = UnsafeMutableRawPointer(mutating: key.baseAddress)
                        field.u.mem.size = key.count
                        fields.append(field)
                    }
                    if let partition = record.partition {
                        field = rd_kafka_vu_t()
                        field.vtype = RD_KAFKA_VTYPE_PARTITION
                        field.u.i32 = partition
                        fields.append(field)
                    }
                    field = rd_kafka_vu_t()
                    field.vtype = RD_KAFKA_VTYPE_MSGFLAGS
                    field.u.i = RD_KAFKA_MSG_F_COPY
                    fields.append(field)
                    field = rd_kafka_vu_t()
                    field.vtype = RD_KAFKA_VTYPE_OPAQUE
                    field.u.ptr = opaque
                    fields.append(field)
                    if let headers {
                        field = rd_kafka_vu_t()
                        field.vtype = RD_KAFKA_VTYPE_HEADERS
                        field.u.headers = headers
                        fields.append(field)
                    }
                    return rd_kafka_produceva(handle, fields, fields.count)
                }
            }
        }
        guard let error else { return RD_KAFKA_RESP_ERR_NO_ERROR }
        // On failure the headers stay ours to free.
        if let headers { rd_kafka_headers_destroy(headers) }
        let code = rd_kafka_error_code(error)
        rd_kafka_error_destroy(error)
        return code
    }

    /// The client's fatal error, when it has one: nothing it produces can succeed any more.
    func fatalError() -> KafkaError? {
        var reason = [CChar](repeating: 0, count: 512)
        let code = rd_kafka_fatal_error(handle, &reason, reason.count)
        guard code != RD_KAFKA_RESP_ERR_NO_ERROR else { return nil }
        return KafkaError(
            "fatal producer error: \(String(errorBuffer: reason))", code: RD_KAFKA_RESP_ERR__FATAL.rawValue)
    }

    /// Raises the fatal error an idempotent producer raises when it and the broker disagree
    /// for good. Returns librdkafka's answer (nil when the error is now raised).
    func triggerFatalErrorForTesting(reason: String) -> KafkaError? {
        let result = rd_kafka_test_fatal_error(handle, RD_KAFKA_RESP_ERR_OUT_OF_ORDER_SEQUENCE_NUMBER, reason)
        return result == RD_KAFKA_RESP_ERR_NO_ERROR ? nil : KafkaError("test fatal error", rdError: result)
    }
}

private func withKeyBytes<R>(_ key: [UInt8]?, _ body: (UnsafeRawBufferPointer?) -> R) -> R {
    guard let key else { return body(nil) }
    return key.withUnsafeBytes { body($0) }
}
