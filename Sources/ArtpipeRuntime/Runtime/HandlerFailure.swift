/// How a handler says that a message failed.
public enum HandlerFailure: Error, CustomStringConvertible {
    /// Retrying cannot help: the message goes to the dead letters at once.
    case permanent(String)
    /// Worth retrying (a timeout, a 503). Any error that is not a `HandlerFailure` counts as this.
    case transient(String)

    public var description: String {
        switch self {
        case .permanent(let reason), .transient(let reason): reason
        }
    }
}
