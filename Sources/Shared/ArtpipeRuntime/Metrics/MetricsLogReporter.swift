import ArtpipeSupport
import Logging
import ServiceLifecycle

/// Logs one `metrics` line per interval, and a last one at shutdown.
///
/// The line carries every counter and gauge by label, and per timer `<label>_ms` with
/// `count`, `p50`, `p95` and `p99` of the interval.
package struct MetricsLogReporter: Service {
    private let factory: LoggedMetricsFactory
    private let interval: Duration
    private let sample: @Sendable () -> Logger.Metadata
    private let logger: Logger

    /// - Parameter sample: called before each report, to record gauges read from elsewhere;
    ///   returns fields to add to the line.
    package init(
        factory: LoggedMetricsFactory, interval: Duration, logger: Logger,
        sample: @escaping @Sendable () -> Logger.Metadata = { [:] }
    ) {
        self.factory = factory
        self.interval = interval
        self.sample = sample
        self.logger = logger
    }

    package func run() async throws {
        let start = ContinuousClock.now
        var next = start + interval
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                let deadline = next
                try await cancelWhenGracefulShutdown { try await Task.sleep(until: deadline) }
            } catch {
                break
            }
            report(intervalSeconds: interval.seconds)
            next += interval
        }
        report(intervalSeconds: nil)
    }

    func report(intervalSeconds: Double?) {
        var metadata = sample()
        let snapshot = factory.snapshot()
        for (label, value) in snapshot.counters { metadata[label] = .stringConvertible(value) }
        for (label, value) in snapshot.gauges {
            metadata[label] = .stringConvertible(
                value.rounded() == value ? Int64(value) as any CustomStringConvertible & Sendable : value)
        }
        for (label, latency) in snapshot.latencies {
            metadata["\(label)_ms"] = [
                "count": .stringConvertible(latency.count), "p50": .stringConvertible(latency.p50Milliseconds),
                "p95": .stringConvertible(latency.p95Milliseconds), "p99": .stringConvertible(latency.p99Milliseconds),
            ]
        }
        if let intervalSeconds { metadata["interval_s"] = .stringConvertible(intervalSeconds) }
        logger.info("metrics", metadata: metadata)
    }
}
