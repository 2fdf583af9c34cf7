/// Exponential backoff with full jitter, bounded in attempts and in delay.
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

    /// The wait after failed attempt number `attempt` (1-based): uniform in 0...min(max, initial·2^(attempt−1)).
    package func delay(afterAttempt attempt: Int) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let ceiling = min(maxDelay.seconds, initialDelay.seconds * Double(1 << exponent))
        return .seconds(Double.random(in: 0...ceiling))
    }
}
