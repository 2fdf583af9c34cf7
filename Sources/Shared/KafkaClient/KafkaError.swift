import ArtpipeSupport

/// An error reported by librdkafka or by this Kafka client.
package struct KafkaError: ClassifiedError, Sendable {
    /// The librdkafka error code, when the error came from librdkafka.
    package let code: Int32?
    /// A one-line explanation.
    package let message: String

    package init(_ message: String, code: Int32? = nil) {
        self.message = message
        self.code = code
    }

    package var description: String { message }
}
