import ArtpipeSupport
import CKafka

extension KafkaError {
    init(_ context: String, rdError: rd_kafka_resp_err_t) {
        let name = String(cString: rd_kafka_err2str(rdError))
        self.init("\(context): \(name)", code: rdError.rawValue)
    }

    /// Takes an `rd_kafka_error_t` and destroys it.
    init(_ context: String, consuming error: OpaquePointer) {
        let text = String(cString: rd_kafka_error_string(error))
        self.init("\(context): \(text)", code: rd_kafka_error_code(error).rawValue)
        rd_kafka_error_destroy(error)
    }

    /// For good when producing the record can never succeed, however often it is tried (it is
    /// too large for the broker or the client, or the broker refuses it as invalid) and when
    /// the client can go no further (``isFatal``); anything else passes (a broker down, a
    /// leader moving, a full queue).
    package var failureClass: FailureClass {
        guard let code else { return .forNow }
        let forGood = [
            RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE, RD_KAFKA_RESP_ERR_RECORD_LIST_TOO_LARGE,
            RD_KAFKA_RESP_ERR_INVALID_RECORD, RD_KAFKA_RESP_ERR__FATAL,
        ].contains { $0.rawValue == code }
        return forGood ? .forGood : .forNow
    }

    /// The client can go no further (an idempotent producer's fatal error): only a new
    /// process, with a new client, can.
    package var isFatal: Bool { code == RD_KAFKA_RESP_ERR__FATAL.rawValue }

    /// The producer's local queue is full: the record may be enqueued once deliveries drain it.
    var isQueueFull: Bool { code == RD_KAFKA_RESP_ERR__QUEUE_FULL.rawValue }
}
