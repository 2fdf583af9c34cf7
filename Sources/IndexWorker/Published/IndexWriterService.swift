import ArtpipeSupport
import Foundation
import Logging
import Metrics
import NIOPosix
import ObjectStorage
import ServiceLifecycle

/// Writes changed shards and republishes the index at most once per interval, and a last
/// time at shutdown, after the worker has stopped.
package struct IndexWriterService: Service {
    let store: IndexStateStore
    let publisher: IndexPublisher
    let interval: Duration
    /// File writes and fsync block: they run here.
    let threadPool: NIOThreadPool
    let logger: Logger
    /// Partitions whose history is missing (``MissingHistory``): above zero, nothing is published.
    let historyMissing = Gauge(label: "index_history_missing_partitions", dimensions: [("worker", "index")])
    /// When the published index was last known current (written, or found unchanged), in Unix
    /// seconds: for an alert when it stops moving.
    let currentAt = Gauge(label: "index_current_timestamp_seconds", dimensions: [("worker", "index")])

    package init(
        store: IndexStateStore, publisher: IndexPublisher, interval: Duration, threadPool: NIOThreadPool,
        logger: Logger
    ) {
        self.store = store
        self.publisher = publisher
        self.interval = interval
        self.threadPool = threadPool
        self.logger = logger
    }

    package func run() async throws {
        try await writeOnce(force: true)
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                let interval = self.interval
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                break
            }
            try await writeOnce(force: false)
        }
        try await writeOnce(force: false)
    }

    private func writeOnce(force: Bool) async throws {
        let (store, publisher) = (self.store, self.publisher)
        let clock = ContinuousClock()
        let missing = store.missingHistory
        historyMissing.record(missing.count)
        let outcome = try await threadPool.runIfActive {
            let start = clock.now
            let flushed = try store.flush()
            let flushedAt = clock.now
            // An index without the pages Kafka lost would look complete and be smaller.
            guard missing.isEmpty else { return PublishOutcome.withheld }
            do {
                let due = try flushed || force || publisher.changedSinceLastBuild()
                let changed = due ? try publisher.publish() > 0 : false
                return .published(changed: changed, flushing: flushedAt - start, publishing: clock.now - flushedAt)
            } catch let error where !FailureClass.of(error).isForGood {
                // The state is flushed: the next interval publishes it all again.
                return .publishFailedForNow("\(error)")
            }
        }
        switch outcome {
        case .withheld:
            break
        case .published(let changed, let flushing, let publishing):
            currentAt.record(Date().timeIntervalSince1970)
            if changed {
                logger.debug(
                    "index written",
                    metadata: [
                        "index.flush.seconds": "\(flushing.seconds)", "index.publish.seconds": "\(publishing.seconds)",
                    ])
            }
        case .publishFailedForNow(let error):
            logger.warning(
                "cannot publish the index for the moment; trying again at the next interval",
                metadata: ["reason": "\(error)"])
        }
    }

    private enum PublishOutcome: Sendable {
        /// History is missing (``MissingHistory``): nothing may be published.
        case withheld
        case published(changed: Bool, flushing: Duration, publishing: Duration)
        case publishFailedForNow(String)
    }
}
