import ArgumentParser
import ArtpipeCommandLine
import ArtpipeRuntime
import ArtpipeSupport
import Foundation
import IndexWorker
import Logging
import NIOPosix
import ObjectStorage
import WorkerEndpoints

/// `artpipe index-worker`: pages, thumbnails and failed requests in; the published index (index.json, works/, index.html, gallery/) out.
struct IndexWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index-worker",
        abstract:
            "Maintain the index (index.json, works/, index.html, gallery/) in a directory or a bucket, from artpipe.pages, artpipe.thumbnails and the dead letters."
    )

    @OptionGroup var worker: WorkerOptions

    /// Shared with thumb-worker, which writes `thumbs/` there.
    @OptionGroup var output: OutputOptions

    @Option(
        help: """
            The worker's own state, rebuilt from Kafka when lost (a local disk; an emptyDir in Kubernetes). \
            Default: DIR/.index-state with --out DIR; required with --out s3://….
            """)
    var state: String?

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
        if state == nil, (try? output.location().folder) == nil {
            throw ValidationError("--state DIR is required with --out s3://…: the index state stays on a local disk")
        }
    }

    func run() async throws {
        ArtpipeLogging.bootstrap(level: worker.level)
        let logger = Logger(label: "artpipe.index")
        let location = try output.location()
        let stateDirectory =
            state.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? location.folder!.appendingPathComponent(IndexStateStore.folderName)
        let store: IndexStateStore
        do {
            store = try IndexStateStore(
                stateDirectory: stateDirectory, acceptsMissingHistory: acceptMissingHistory, logger: logger)
        } catch {
            throw ConfigurationError("--state: cannot use \(stateDirectory.path): \(error.localizedDescription)")
        }
        if case let swept = store.removeStaleTemporaries(publishedIn: location.folder), swept > 0 {
            logger.info("removed temporary files of killed writes", metadata: ["files": "\(swept)"])
        }
        try await run(store: store, published: try await output.open(logger: logger), logger: logger)
    }

    private func run(
        store: IndexStateStore, published: any OutputStore, logger: Logger
    ) async throws {
        let (metrics, registry) = WorkerMetricsBootstrap.bootstrap()
        // The index writer's file writes and fsyncs, and Kafka's one-shot calls.
        try await NIOThreadPool.withPool(threads: 2) { threadPool in
            let writer = IndexWriterService(
                store: store, publisher: IndexPublisher(output: published, store: store),
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
