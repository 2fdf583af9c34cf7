import ArtpipeSupport
import Foundation
import Testing

@Suite("Retry policy")
struct RetryPolicyTests {
    @Test("retry delays grow exponentially with jitter and stay under the cap")
    func retryDelays() {
        let policy = RetryPolicy(maxAttempts: 5, initialDelay: .milliseconds(100), maxDelay: .seconds(1))
        for attempt in 1...10 {
            let ceiling = min(1.0, 0.1 * pow(2, Double(attempt - 1)))
            for _ in 0..<50 {
                let delay = policy.delay(afterAttempt: attempt).seconds
                #expect(delay >= 0 && delay <= ceiling + 1e-9)
            }
        }
        #expect(RetryPolicy(maxAttempts: 0).maxAttempts == 1)
    }
}
