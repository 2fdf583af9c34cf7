import Foundation
import Logging

/// The longest a worker process may take to stop once asked: the service group's own bounds
/// (the drain, then cancellation) cover the services, not a blocking call outside them (the
/// producer's last flush, a client's destroy). Past this deadline the process says so and exits
/// with status 1, so an orchestrator's stop, or a test's, never waits on it indefinitely.
package struct ShutdownDeadline: Sendable {
    let limit: Duration

    package init(limit: Duration) {
        self.limit = limit
    }

    /// Starts counting, on a thread of its own: a stuck cooperative pool cannot hold it back.
    package func arm(logger: Logger) {
        let limit = self.limit
        let thread = Thread {
            Thread.sleep(forTimeInterval: limit.seconds)
            logger.error(
                "still stopping after the shutdown deadline: exiting without finishing",
                metadata: ["deadline_s": "\(limit.seconds)"])
            // The log handler writes lines whole; nothing else is to be flushed.
            _exit(1)
        }
        thread.name = "shutdown-deadline"
        thread.start()
    }
}
