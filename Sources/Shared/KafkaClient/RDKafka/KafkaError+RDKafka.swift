import CKafka

extension KafkaError {
    init(_ context: String, rdError: rd_kafka_resp_err_t) {
        let name = String(cString: rd_kafka_err2str(rdError))
        self.init("\(context): \(name)", code: rdError.rawValue)
    }

    /// The error of an `rd_kafka_error_t`, which this frees.
    static func taking(_ error: OpaquePointer, _ context: String) -> KafkaError {
        defer { rd_kafka_error_destroy(error) }
        let text = String(cString: rd_kafka_error_string(error))
        return KafkaError("\(context): \(text)", code: rd_kafka_error_code(error).rawValue)
    }

    /// The error name librdkafka gives this code (`_TRANSPORT`, `NOT_COORDINATOR`).
    static func name(ofCode code: Int32) -> String {
        String(cString: rd_kafka_err2name(rd_kafka_resp_err_t(code)))
    }

    /// The local queue is full: produce again once deliveries have drained it.
    var isQueueFull: Bool { code == RD_KAFKA_RESP_ERR__QUEUE_FULL.rawValue }

    /// The code librdkafka reports for a client that can go no further.
    static let fatalCode = RD_KAFKA_RESP_ERR__FATAL.rawValue

    /// Codes of records that no retry can deliver.
    static let permanentRecordCodes: Set<Int32> = [
        RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE.rawValue, RD_KAFKA_RESP_ERR_RECORD_LIST_TOO_LARGE.rawValue,
        RD_KAFKA_RESP_ERR_INVALID_RECORD.rawValue,
    ]
}
