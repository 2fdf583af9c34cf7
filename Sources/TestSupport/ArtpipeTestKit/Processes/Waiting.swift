/// Polls `condition` until it holds or `timeout` passes. The wait between polls is not
/// synchronisation: the condition is what the caller waits for.
package func waitUntil(
    _ what: @autoclosure () -> String, timeout: Duration, pollEvery interval: Duration = .milliseconds(50),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try await condition() { return }
        guard ContinuousClock.now < deadline else {
            throw DeadlineExceeded(description: "timed out after \(timeout) waiting for \(what())")
        }
        try await Task.sleep(for: interval)
    }
}
