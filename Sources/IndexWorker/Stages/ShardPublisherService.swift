import ArtpipeSupport
import Foundation
import Logging
import Metrics
import NIOPosix
import ServiceLifecycle

/// Runs ``ShardPublisher``: soon after the stages read something (``tick``), at the latest once
/// per interval, and a last time at shutdown after the stages stopped. A failure for the
/// moment (the store down) is tried again at the next interval.
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
                let (interval, publisher, tick) = (self.interval, self.publisher, self.tick)
                try await cancelWhenGracefulShutdown {
                    let deadline = ContinuousClock.now + interval
                    repeat {
                        try await Task.sleep(for: tick)
                    } while ContinuousClock.now < deadline && (failed || !publisher.hasNews())
                }
            } catch {
                break
            }
        }
        try await publishOnce()
    }

    /// How often the stages are asked for news between rounds: 10 ms when the publisher says
    /// the next round should follow soon (``ShardPublisher/followsSoon``: a new page's path to
    /// the manifest takes two rounds, and a tenth of the interval before each put up to 200 ms
    /// on it), else a tenth of the interval, which lets the stages read more between rounds
    /// while there is news all the time.
    var tick: Duration {
        publisher.followsSoon ? min(interval / 10, .milliseconds(10)) : interval / 10
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
