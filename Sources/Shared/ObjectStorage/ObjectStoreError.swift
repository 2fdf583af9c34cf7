/// Why a request to the object store failed.
package enum ObjectStoreError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The location, endpoint or credentials are unusable: a start-up error.
    case configuration(String)
    /// The store answered with an error status.
    case status(code: Int, error: String?, message: String?, request: String)
    /// No answer: the connection failed or timed out.
    case transport(String, request: String)
    /// An answer that is not what the protocol says.
    case malformed(String, request: String)

    package var description: String {
        switch self {
        case .configuration(let text): text
        case .status(let code, let error, let message, let request):
            "\(request): HTTP \(code)\(error.map { " \($0)" } ?? "")\(message.map { ": \($0)" } ?? "")"
        case .transport(let text, let request): "\(request): \(text)"
        case .malformed(let text, let request): "\(request): \(text)"
        }
    }

    /// Worth trying again later: the store is down, overloaded or unreachable for the moment.
    /// A refusal (403, a missing bucket) is not: no retry changes it.
    package var isTransient: Bool {
        switch self {
        case .configuration, .malformed: false
        case .transport: true
        case .status(let code, let error, _, _):
            code >= 500 || code == 429 || code == 408 || error == "SlowDown" || error == "RequestTimeout"
        }
    }
}
