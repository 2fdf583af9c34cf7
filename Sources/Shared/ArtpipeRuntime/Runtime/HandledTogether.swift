import KafkaClient

/// What ``MessageHandler/handle(together:)`` came to: the outputs of each message handled, in
/// order, and the error of the one after them, when its handling threw.
package struct HandledTogether: Sendable {
    package var outputs: [[KafkaProducerRecord]]
    package var failure: (any Error)?

    package init(outputs: [[KafkaProducerRecord]] = [], failure: (any Error)? = nil) {
        (self.outputs, self.failure) = (outputs, failure)
    }
}
