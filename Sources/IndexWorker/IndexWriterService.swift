import Logging
import ServiceLifecycle
import Shared

/// Writes changed shards and republishes the index at most once per interval, and a last
/// time at shutdown, after the worker has stopped.
public struct IndexWriterService: Service {
    let store: IndexStateStore
    let publisher: IndexPublisher
    let interval: Duration
    let logger: Logger

    public init(store: IndexStateStore, publisher: IndexPublisher, interval: Duration, logger: Logger) {
        self.store = store
        self.publisher = publisher
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
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
        // File writes and fsync block: they run on a thread of their own.
        let changed = try await DedicatedThread.run(name: "artpipe-index-writer") {
            let flushed = try store.flush()
            return (flushed || force || publisher.shardsChangedSinceLastBuild()) ? try publisher.publish() : false
        }
        if changed { logger.debug("index written") }
    }
}
