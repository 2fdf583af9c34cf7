import ArgumentParser
import ArtpipeCommandLine
import ArtpipeRuntime
import FetchWorker
import Logging
import NIOPosix
import WorkerEndpoints

/// `artpipe fetch-worker`: page requests in, pages out.
struct FetchWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch-worker",
        abstract: "Fetch the collection pages that artpipe.page-requests asks for and publish them to artpipe.pages.")

    @OptionGroup var worker: WorkerOptions
    @OptionGroup var source: SourceOptions
    @OptionGroup var retry: RetryOptions

    func run() async throws {
        ArtpipeLogging.bootstrap(level: worker.level)
        let (metrics, registry) = WorkerMetricsBootstrap.bootstrap()
        let logger = Logger(label: "artpipe.fetch")
        let (sources, fetchers, redaction) = try source.makeSources(
            logger: logger, maxRetryAfter: try retry.giveUpAfter())
        // Said when a request of a source that lacks its key comes, not to a worker that never gets one.
        let keyWarnings = MissingKeyWarnings(sources: sources, apiKey: try source.apiKey())
        // Only Kafka's calls block here (HTTP runs on the event loops): the one-shot calls, and
        // reading a partition's chain steps when it is assigned, which may take a while after a
        // replay, so it gets a thread of its own beside them.
        try await NIOThreadPool.withPool(threads: 2) { threadPool in
            let settings = try worker.launchSettings(threadPool: threadPool)
            let chains = CursorChains(client: settings.client, logger: logger)
            try await WorkerLauncher.run(
                .init(
                    stage: .fetch,
                    handler: PageFetchHandler(
                        sources: sources, redaction: redaction, chains: chains, keyWarnings: keyWarnings),
                    retryDelays: try retry.delays(), retryFor: try retry.giveUpAfter()),
                settings: settings, metricsFactory: metrics, logger: logger,
                companions: worker.endpointServices(registry: registry, logger: logger),
                onStop: { for fetcher in fetchers { try? await fetcher.shutdown() } })
        }
    }
}
