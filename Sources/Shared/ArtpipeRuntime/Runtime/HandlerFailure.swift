import KafkaClient

/// How a handler says that a message failed.
package enum HandlerFailure: Error, CustomStringConvertible {
    /// Retrying cannot help: the message goes to the dead letters at once.
    case permanent(String)
    /// Worth retrying (a timeout, a 503), not before `retryAfter` when the server said so.
    /// Any error that is not a `HandlerFailure` counts as this, with no `retryAfter`.
    ///
    /// Where the worker retries on retry topics, `outputs` are produced with the retry copy
    /// (what the attempt could already tell, such as the next page's request), and the copy
    /// carries `retryHeaders`, so the next attempt knows what was already produced.
    case transient(
        String, retryAfter: Duration? = nil, outputs: [KafkaProducerRecord] = [], retryHeaders: [KafkaHeader] = [])

    package var description: String {
        switch self {
        case .permanent(let reason), .transient(let reason, _, _, _): reason
        }
    }
}
