import CKafka

/// An error reported by librdkafka or by this Kafka client.
package struct KafkaError: Error, CustomStringConvertible, Sendable {
    /// The librdkafka error code, when the error came from librdkafka.
    package let code: Int32?
    /// A one-line explanation.
    package let message: String

    package init(_ message: String, code: Int32? = nil) {
        self.message = message
        self.code = code
    }

    init(_ context: String, rdError: rd_kafka_resp_err_t) {
        let name = String(cString: rd_kafka_err2str(rdError))
        self.init("\(context): \(name)", code: rdError.rawValue)
    }

    init(_ context: String, error: OpaquePointer) {
        let text = String(cString: rd_kafka_error_string(error))
        self.init("\(context): \(text)", code: rd_kafka_error_code(error).rawValue)
    }

    package var description: String { message }

    /// Producing the record can never succeed, however often it is tried: it is too large
    /// for the broker or the client, or the broker refuses it as invalid.
    package var isPermanentForRecord: Bool {
        guard let code else { return false }
        return [
            RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE, RD_KAFKA_RESP_ERR_RECORD_LIST_TOO_LARGE,
            RD_KAFKA_RESP_ERR_INVALID_RECORD,
        ].contains { $0.rawValue == code }
    }

    /// The client can go no further (an idempotent producer's fatal error): only a new
    /// process, with a new client, can.
    package var isFatal: Bool { code == RD_KAFKA_RESP_ERR__FATAL.rawValue }
}
