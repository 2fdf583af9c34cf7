import ArtpipeSupport
import KafkaClient

/// A handler's failure with what the attempt could already tell: its class (``FailureClass``),
/// its words, and, for a retry on the retry topics, the outputs produced with the retry copy
/// (such as the next page's request) and headers the copy carries, so the next attempt knows
/// what was already produced.
///
/// Handlers throw errors as they come; they need this only to add outputs or headers, to
/// redact the words, or to say something no error of theirs says. `WorkerRuntime` classifies
/// whatever a handler throws once, with ``FailureClass/of(_:)``.
package struct HandlerFailure: ClassifiedError {
    package var reason: String
    package var failureClass: FailureClass
    package var outputs: [KafkaProducerRecord] = []
    package var retryHeaders: [KafkaHeader] = []

    /// Retrying cannot help: the message goes to the dead letters at once.
    package static func forGood(_ reason: String) -> HandlerFailure {
        HandlerFailure(reason: reason, failureClass: .forGood)
    }

    /// Worth retrying, not before `retryAfter` when the other side said so.
    package static func forNow(
        _ reason: String, retryAfter: Duration? = nil, outputs: [KafkaProducerRecord] = [],
        retryHeaders: [KafkaHeader] = []
    ) -> HandlerFailure {
        HandlerFailure(
            reason: reason, failureClass: .forNow(retryAfter: retryAfter), outputs: outputs, retryHeaders: retryHeaders)
    }

    /// `error` as it classifies itself, in `reason`'s words (a redacted description, say).
    package init(_ error: any Error, reason: String? = nil, retryHeaders: [KafkaHeader] = []) {
        self.reason = reason ?? "\(error)"
        self.failureClass = FailureClass.of(error)
        self.retryHeaders = retryHeaders
    }

    init(
        reason: String, failureClass: FailureClass, outputs: [KafkaProducerRecord] = [],
        retryHeaders: [KafkaHeader] = []
    ) {
        self.reason = reason
        self.failureClass = failureClass
        self.outputs = outputs
        self.retryHeaders = retryHeaders
    }

    package var description: String { reason }
}
