/// How a handler says that a message failed.
public enum HandlerFailure: Error, CustomStringConvertible {
    /// Retrying cannot help: the message goes to the dead letters at once.
    case permanent(String)
    /// Worth retrying (a timeout, a 503), not before `retryAfter` when the server said so.
    /// Any error that is not a `HandlerFailure` counts as this, with no `retryAfter`.
    case transient(String, retryAfter: Duration? = nil)

    public var description: String {
        switch self {
        case .permanent(let reason), .transient(let reason, _): reason
        }
    }
}
