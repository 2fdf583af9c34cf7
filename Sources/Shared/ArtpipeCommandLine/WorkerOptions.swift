import ArgumentParser
import ArtpipeRuntime
import Foundation
import KafkaClient
import Logging
import NIOPosix

/// The flags every worker takes.
package struct WorkerOptions: ParsableArguments {
    @OptionGroup var kafka: KafkaOptions

    @Option(
        help:
            "Partitions handled at the same time (default: the number of cores; the index worker: its partition count)."
    )
    package var concurrency: Int?

    @Option(help: "Seconds between `metrics` log lines.")
    var metricsInterval: Double = 10

    @Option(help: "Seconds a shutdown or rebalance waits for messages being handled.")
    package var drainTimeout: Double = 30

    @Option(help: "Messages buffered per partition before that partition is paused.")
    var maxBuffered: Int = 50_000

    @Option(help: "MiB of messages buffered per partition before that partition is paused.")
    var maxBufferedMib: Int = 32

    @Option(
        help: """
            MiB of messages buffered over every partition the worker holds: each partition's limit is its \
            share of this when that is below --max-buffered-mib.
            """)
    var maxBufferedTotalMib: Int = 256

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    @Option(help: "Serve /healthz, /readyz and /metrics (Prometheus) on this port (0: any free port; default: off).")
    package var httpPort: Int?

    @Option(help: "Address the HTTP port listens on.")
    package var httpHost: String = "0.0.0.0"

    @Option(
        help: """
            Seconds a partition with work waiting may go without finishing a message before it counts as \
            stalled (artpipe_partition_stalled on /metrics, for an alert; /healthz stays up: a restart would \
            not make a slow host faster).
            """)
    package var progressTimeout: Double = 900

    package init() {}

    package func validate() throws {
        if let concurrency, concurrency < 1 { throw ValidationError("--concurrency must be at least 1") }
        if metricsInterval <= 0 { throw ValidationError("--metrics-interval must be positive") }
        if maxBuffered < 1 { throw ValidationError("--max-buffered must be at least 1") }
        if maxBufferedMib < 1 { throw ValidationError("--max-buffered-mib must be at least 1") }
        if maxBufferedTotalMib < 1 { throw ValidationError("--max-buffered-total-mib must be at least 1") }
        if drainTimeout < 0 { throw ValidationError("--drain-timeout must not be negative") }
        if progressTimeout <= 0 { throw ValidationError("--progress-timeout must be positive") }
        if let httpPort, !(0...65_535).contains(httpPort) { throw ValidationError("--http-port must be 0–65535") }
        if Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError("--log-level '\(logLevel)' is not a log level")
        }
    }

    /// The launcher's settings these flags describe; the Kafka clients' blocking calls go to `threadPool`.
    package func launchSettings(threadPool: NIOThreadPool) throws -> WorkerLaunchSettings {
        var settings = WorkerLaunchSettings(
            client: try kafka.clientConfiguration(threadPool: threadPool), concurrency: effectiveConcurrency)
        settings.metricsInterval = .seconds(fromFlag: metricsInterval)
        settings.drainTimeout = .seconds(fromFlag: drainTimeout)
        settings.maxBufferedPerPartition = maxBuffered
        settings.maxBufferedBytesPerPartition = maxBufferedMib << 20
        settings.maxBufferedBytesTotal = maxBufferedTotalMib << 20
        settings.connectTimeout = kafka.connectTimeoutDuration
        return settings
    }

    package var level: Logger.Level { Logger.Level(rawValue: logLevel) ?? .info }
    var effectiveConcurrency: Int { concurrency ?? ProcessInfo.processInfo.activeProcessorCount }
}
