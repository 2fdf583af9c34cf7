import ArgumentParser
import ArtpipeCommandLine
import ArtpipeRuntime
import ArtpipeSupport
import Foundation
import IndexWorker
import Logging
import NIOPosix
import WorkerEndpoints

/// `artpipe index-worker`: pages, thumbnails and failed requests in; the published index (index.json, works/, index.html, gallery/) out.
struct IndexWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index-worker",
        abstract:
            "Maintain the index in DIR (index.json, works/, index.html, gallery/) from artpipe.pages, artpipe.thumbnails and the dead letters."
    )

    @OptionGroup var worker: WorkerOptions

    @Option(help: "Output directory (shared with thumb-worker, which writes DIR/thumbs).")
    var out: String

    @Option(help: "Seconds between writes of the index (at most one write per interval).")
    var writeInterval: Double = 1

    @Flag(
        help: """
            Go on when an input partition no longer holds messages the index needs (deleted by the broker's \
            retention): the index then lacks their pages. Without it, the worker logs the gap, fails /healthz \
            and publishes nothing until it is resolved.
            """)
    var acceptMissingHistory = false

    func validate() throws {
        guard writeInterval > 0 else { throw ValidationError("--write-interval must be positive") }
    }

    func run() async throws {
        ArtpipeLogging.bootstrap(level: worker.level)
        let (metrics, registry) = WorkerMetricsBootstrap.bootstrap()
        let logger = Logger(label: "artpipe.index")
        let output = URL(fileURLWithPath: out, isDirectory: true)
        let store: IndexStateStore
        do {
            store = try IndexStateStore(
                outputDirectory: output, acceptsMissingHistory: acceptMissingHistory, logger: logger)
        } catch {
            throw ConfigurationError("--out: cannot use \(output.path): \(error.localizedDescription)")
        }
        if case let swept = store.removeStaleTemporaries(), swept > 0 {
            logger.info("removed temporary files of killed writes", metadata: ["files": "\(swept)"])
        }
        // The index writer's file writes and fsyncs, and Kafka's one-shot calls.
        try await NIOThreadPool.withPool(threads: 2) { threadPool in
            let writer = IndexWriterService(
                store: store, publisher: IndexPublisher(outputDirectory: output, store: store),
                interval: .seconds(fromFlag: writeInterval), threadPool: threadPool, logger: logger)
            try await WorkerLauncher.run(
                .init(
                    stage: .index, handler: IndexMessageHandler(store: store), services: [writer],
                    configureConsumer: { consumer in
                        consumer.startOffset = { store.startOffset(for: $0, committed: $1, earliest: $2) }
                        consumer.onRevoke = { store.revoke($0, lost: $1) }
                    }),
                settings: try worker.launchSettings(threadPool: threadPool), metricsFactory: metrics, logger: logger,
                companions: worker.endpointServices(
                    registry: registry,
                    problem: { store.missingHistory.first.map { "history missing: \($0)" } }, logger: logger))
        }
    }
}
