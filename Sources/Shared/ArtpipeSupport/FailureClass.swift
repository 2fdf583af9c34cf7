/// Whether a failure passes: the one answer every error the workers meet gives, read in one
/// place (`WorkerRuntime` for a message, each retry loop for its own request) instead of being
/// translated from type to type on its way up.
package enum FailureClass: Sendable, Equatable {
    /// For the moment: trying again later may succeed, not before `retryAfter` when the other
    /// side said how long to wait (a floor under the caller's own backoff, never a replacement).
    case forNow(retryAfter: Duration?)
    /// For good: trying again cannot change the answer.
    case forGood

    /// For the moment, with no wait asked for.
    package static let forNow = FailureClass.forNow(retryAfter: nil)

    /// How `error` is classified: its own word when it is a ``ClassifiedError``. Any other error
    /// (a file that could not be written, a decoding slip in our own code) is for the moment:
    /// it is tried again until the retry budget runs out and then dead-lettered, so nothing is
    /// dropped on a guess.
    package static func of(_ error: any Error) -> FailureClass {
        (error as? any ClassifiedError)?.failureClass ?? .forNow
    }

    package var isForGood: Bool { self == .forGood }

    /// The wait the other side asked for, when it did.
    package var retryAfter: Duration? {
        if case .forNow(let retryAfter) = self { return retryAfter }
        return nil
    }
}

/// An error that says whether it passes. Every error type of artpipe's adopts this.
package protocol ClassifiedError: Error, CustomStringConvertible {
    var failureClass: FailureClass { get }
}
