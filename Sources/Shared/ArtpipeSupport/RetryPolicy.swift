/// Exponential backoff with equal jitter (half of each step fixed, half random), bounded in
/// attempts and in delay: a retry always waits, so attempts never go back to back (a server's
/// `Retry-After: 0` is a floor under this, not a replacement), and clients still spread out.
package struct RetryPolicy: Sendable {
    /// Attempts in all, the first included.
    package var maxAttempts: Int
    var initialDelay: Duration
    var maxDelay: Duration

    package init(maxAttempts: Int = 5, initialDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(10)) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
    }

    /// The wait after failed attempt number `attempt` (1-based): uniform in c/2...c, where
    /// c = min(max, initial·2^(attempt−1)).
    package func delay(afterAttempt attempt: Int) -> Duration {
        .seconds(Double.random(in: (ceiling(afterAttempt: attempt) / 2)...ceiling(afterAttempt: attempt)))
    }

    private func ceiling(afterAttempt attempt: Int) -> Double {
        let exponent = min(max(attempt - 1, 0), 30)
        return min(maxDelay.seconds, initialDelay.seconds * Double(1 << exponent))
    }
}
