/// An error reported by librdkafka or by this Kafka client.
package struct KafkaError: Error, CustomStringConvertible, Sendable {
    /// The librdkafka error code, when the error came from librdkafka.
    let code: Int32?
    /// A one-line explanation.
    package let message: String

    package init(_ message: String, code: Int32? = nil) {
        self.message = message
        self.code = code
    }

    package var description: String { message }

    /// Producing the record can never succeed, however often it is tried: it is too large
    /// for the broker or the client, or the broker refuses it as invalid.
    package var isPermanentForRecord: Bool {
        guard let code else { return false }
        return Self.permanentRecordCodes.contains(code)
    }

    /// The client can go no further (an idempotent producer's fatal error): only a new
    /// process, with a new client, can.
    package var isFatal: Bool { code == Self.fatalCode }
}
