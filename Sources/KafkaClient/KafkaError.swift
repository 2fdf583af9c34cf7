import CKafka

/// An error reported by librdkafka or by this Kafka client.
public struct KafkaError: Error, CustomStringConvertible, Sendable {
    /// The librdkafka error code, when the error came from librdkafka.
    public let code: Int32?
    /// A one-line explanation.
    public let message: String

    public init(_ message: String, code: Int32? = nil) {
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

    public var description: String { message }
}
