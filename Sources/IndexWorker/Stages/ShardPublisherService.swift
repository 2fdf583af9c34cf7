import ArtpipeSupport
import Foundation
import Logging
import Metrics
import NIOPosix
import ServiceLifecycle

/// Runs ``ShardPublisher`` when its ``RoundSchedule`` says (soon after the stages read
/// something, at the latest once per interval), and a last time at shutdown after the stages
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
        var schedule = RoundSchedule(interval: interval)
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            schedule.record(try await publishOnce())
            do {
                let (publisher, current) = (self.publisher, schedule)
                try await cancelWhenGracefulShutdown {
                    let ended = ContinuousClock.now
                    repeat {
                        try await Task.sleep(for: current.tick(publisher.signals))
                    } while !current.runsNow(waited: ContinuousClock.now - ended, news: publisher.hasNews)
                }
            } catch {
                break
            }
        }
        try await publishOnce()
    }

    /// One round, and how it ended.
    @discardableResult
    private func publishOnce() async throws -> RoundSchedule.LastRound {
        do {
            let written = try await publisher.publish(threadPool: threadPool)
            currentAt.record(Date().timeIntervalSince1970)
            guard written > 0 else { return .atRest }
            logger.debug("index written", metadata: ["files": "\(written)"])
            return .wrote
        } catch let error where !FailureClass.of(error).isForGood {
            logger.warning(
                "cannot publish the index for the moment; trying again at the next interval",
                metadata: ["reason": "\(error)"])
            return .failed
        }
    }
}
