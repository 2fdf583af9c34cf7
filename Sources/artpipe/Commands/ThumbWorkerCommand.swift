import ArgumentParser
import ArtpipeCommandLine
import ArtpipeRuntime
import Logging
import NIOPosix
import ObjectStorage
import ThumbWorker
import WorkerEndpoints

/// `artpipe thumb-worker`: pages in, thumbnails in a folder or a bucket and `PageThumbnails` out.
struct ThumbWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumb-worker",
        abstract: "Make the thumbnails of every page on artpipe.pages and publish them to artpipe.thumbnails.")

    @OptionGroup var worker: WorkerOptions
    @OptionGroup var thumbs: ThumbWorkerOptions
    @OptionGroup var retry: RetryOptions

    func run() async throws {
        ArtpipeLogging.bootstrap(level: worker.level)
        let logger = Logger(label: "artpipe.thumb")
        try await run(
            output: try await thumbs.output.open(touchAfter: thumbs.touchAfterDuration, logger: logger), logger: logger)
    }

    private func run(
        output: any OutputStore, logger: Logger
    ) async throws {
        let (metrics, registry) = WorkerMetricsBootstrap.bootstrap()
        try await NIOThreadPool.withPool(threads: thumbs.blockingThreads) { threadPool in
            let settings = try worker.launchSettings(threadPool: threadPool)
            let (handler, downloader) = try thumbs.makeHandler(
                output: output, threadPool: threadPool, maxRetryAfter: try retry.giveUpAfter(), logger: logger)
            try await WorkerLauncher.run(
                .init(
                    stage: .thumb, handler: handler, retryDelays: try retry.delays(), retryFor: try retry.giveUpAfter()),
                settings: settings, metricsFactory: metrics, logger: logger,
                companions: worker.endpointServices(registry: registry, logger: logger),
                onStop: { try? await downloader.shutdown() })
        }
    }
}
