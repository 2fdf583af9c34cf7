import ArtpipeSupport

/// Why a request to the object store failed.
package enum ObjectStoreError: ClassifiedError, Sendable, Equatable {
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

    /// For the moment when the store is down, overloaded or unreachable, or the credentials
    /// expired (read again before the next request): by HTTP status, and by S3's error code
    /// whatever the status (DeleteObjects answers 200 with an `<Error>` per key it could not
    /// delete). A refusal (`AccessDenied`, a missing bucket, a bad signature) is for good.
    package var failureClass: FailureClass {
        switch self {
        case .configuration, .malformed: .forGood
        case .transport: .forNow
        case .status(let code, let error, _, _):
            code >= 500 || code == 429 || code == 408 || error.map(Self.passingCodes.contains) == true
                ? .forNow : .forGood
        }
    }

    /// S3 error codes that pass: AWS's and Ceph's for an overloaded or busy store, and those of
    /// expired temporary credentials.
    static let passingCodes: Set<String> = [
        "InternalError", "ServiceUnavailable", "SlowDown", "RequestTimeout", "UnknownError", "OperationAborted",
        "Throttling", "ThrottlingException", "RequestTimeTooSkewed", "ExpiredToken", "TokenRefreshRequired",
    ]

    /// A conditional request refused: 412 (`PreconditionFailed`), or AWS's 409
    /// `ConditionalRequestConflict` for two conditional writes of one key at once.
    package var preconditionFailed: Bool {
        guard case .status(let code, let error, _, _) = self else { return false }
        return code == 412 || (code == 409 && error == "ConditionalRequestConflict")
    }

    /// A conditional write refused because `condition` does not hold: a 412 (or AWS's 409 for two
    /// at once), or, for `If-Match`, AWS's 404 `NoSuchKey` when nothing is there any more.
    package func isRefusal(of condition: OutputCondition) -> Bool {
        if preconditionFailed { return true }
        guard case .version = condition, case .status(404, let error, _, _) = self else { return false }
        return error == "NoSuchKey"
    }

    /// A request the store does not serve (501 `NotImplemented`): a header it does not know.
    package var notImplemented: Bool {
        guard case .status(let code, let error, _, _) = self else { return false }
        return code == 501 || error == "NotImplemented"
    }

    /// The store says the credentials expired: they are read again.
    var credentialsExpired: Bool {
        if case .status(_, let error?, _, _) = self { return ["ExpiredToken", "TokenRefreshRequired"].contains(error) }
        return false
    }
}
