import ArtpipeSupport
import Foundation
import Logging
import Metrics
import NIOPosix
import ServiceLifecycle

/// Runs ``ShardPublisher``: soon after the stages read something (within a tenth of the
/// interval), at the latest once per interval, and a last time at shutdown after the stages
/// stopped. A failure for the moment (the store down) is tried again at the next interval.
package struct ShardPublisherService: Service {
    let publisher: ShardPublisher
    let interval: Duration
    let threadPool: NIOThreadPool
    let logger: Logger
    /// When a publish round last completed, in Unix seconds: for an alert when it stops moving.
    let currentAt = Gauge(label: "index_current_timestamp_seconds", dimensions: [("worker", "index")])

    package init(publisher: ShardPublisher, interval: Duration, threadPool: NIOThreadPool, logger: Logger) {
        (self.publisher, self.interval, self.threadPool, self.logger) = (publisher, interval, threadPool, logger)
    }

    package func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let failed = try await publishOnce()
            do {
                let (interval, publisher) = (self.interval, self.publisher)
                // A tenth of the interval at a time, so a change is published within about that.
                try await cancelWhenGracefulShutdown {
                    let deadline = ContinuousClock.now + interval
                    repeat {
                        try await Task.sleep(for: interval / 10)
                    } while ContinuousClock.now < deadline && (failed || !publisher.hasNews())
                }
            } catch {
                break
            }
        }
        try await publishOnce()
    }

    /// One round; true when it failed for the moment.
    @discardableResult
    private func publishOnce() async throws -> Bool {
        do {
            let written = try await publisher.publish(threadPool: threadPool)
            currentAt.record(Date().timeIntervalSince1970)
            if written > 0 { logger.debug("index written", metadata: ["files": "\(written)"]) }
            return false
        } catch let error where !FailureClass.of(error).isForGood {
            logger.warning(
                "cannot publish the index for the moment; trying again at the next interval",
                metadata: ["reason": "\(error)"])
            return true
        }
    }
}
