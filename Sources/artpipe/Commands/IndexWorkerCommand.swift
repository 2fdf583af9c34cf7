import ArgumentParser
import ArtpipeCommandLine
import ArtpipeRuntime
import ArtpipeSupport
import Foundation
import IndexWorker
import KafkaClient
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
            A folder of this copy's own (an emptyDir): the index's state (pages, works, lines), in embedded \
            SQLite files restored from Kafka's index topics. A clean stop seals them with a checkpoint, and a \
            copy started again on the folder keeps them, reading the topics only from there. Default: a new \
            folder in the temporary directory, removed at exit.
            """)
    var state: String?

    @Option(help: "MiB of the index's state kept in memory: what is read most often; the rest is read from disk.")
    var stateCacheMib: Int = IndexStages.defaultStateCacheBytes >> 20

    @Option(
        help: """
            Seconds: the longest between publish rounds. A change is published within a tenth of it (100 ms at \
            the default); rounds come no closer than that. Every ten intervals the output is listed, and a \
            file another writer replaced is written again.
            """)
    var writeInterval: Double = 1

    @Flag(
        help: """
            Go on when an input partition no longer holds pages or thumbnails the index needs (deleted by the \
            broker's retention): the index then lacks them. Without it, the worker logs the gap, holds that \
            partition, fails /healthz and assembles no index.json until it is resolved.
            """)
    var acceptMissingHistory = false

    @Option(
        help: """
            The absolute http(s) URL the published folder or bucket is served at (https://gallery.example.org/): \
            the worker then writes sitemap.xml there, the gallery's pages as search engines read them, \
            and the pages' Open Graph properties (what a shared link shows). Changing it renders every page again.
            """)
    var siteURL: String?

    func validate() throws {
        if let siteURL, SiteAddress(siteURL) == nil {
            throw ValidationError(
                "--site-url must be an absolute http or https URL without a query or fragment, not \(siteURL)")
        }
        guard writeInterval > 0 else { throw ValidationError("--write-interval must be positive") }
        guard stateCacheMib > 0 else { throw ValidationError("--state-cache-mib must be positive") }
    }

    func run() async throws {
        ArtpipeLogging.bootstrap(level: worker.level)
        // Two arenas: at a million works a copy's peak fell from 620 to 425 MiB (docs/benchmarks.md).
        MallocArenas.limit(to: 2, environment: ProcessInfo.processInfo.environment)
        let logger = Logger(label: "artpipe.index")
        let stateFolder =
            state.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "artpipe-index-\(ProcessInfo.processInfo.processIdentifier)")
        defer { if state == nil { try? FileManager.default.removeItem(at: stateFolder) } }
        let published = try await output.open(logger: logger)
        let (metrics, registry) = WorkerMetricsBootstrap.bootstrap()
        // The publisher's file writes and fsyncs, and Kafka's one-shot calls: a thread for each of
        // the shards a round writes side by side, and one for the broker's questions meanwhile.
        try await NIOThreadPool.withPool(threads: ShardPublisher.defaultShardsAtOnce + 1) { threadPool in
            // The works' and the lines' disk calls, apart from the publisher's; and the pages' entries
            // on a thread of their own, so that a new page never waits behind a round reading lines.
            try await NIOThreadPool.withPool(threads: 2) { storeThreads in
                try await NIOThreadPool.withPool(threads: 1) { pageThreads in
                    var settings = try worker.launchSettings(threadPool: threadPool)
                    let partitions = try await IndexStages.partitionCount(
                        kafka: settings.client, timeout: settings.connectTimeout, logger: logger)
                    // The stages wait on the broker, not the CPU: a run's rows are acknowledged before
                    // the next run of its partition, so every partition at once, and no linger.
                    if worker.concurrency == nil { settings.concurrency = partitions }
                    settings.producerLinger = .zero
                    // A copy that stalls past its session writes nothing until its groups have
                    // confirmed or revoked its partitions, and a row it queued fails rather than
                    // land after its successor's (docs/architecture.md, "The fence").
                    let fence = GroupMembershipFence(client: settings.client, logger: logger)
                    fence.start()
                    defer { fence.stop() }
                    settings.fence = fence
                    settings.producerDeliveryTimeout = settings.producerDeliveryTimeout ?? fence.deliveryTimeout
                    // The state folder is locked, its checkpoints taken and its files opened: disk
                    // calls, off the cooperative pool.
                    let (client, cacheBytes, interval) = (settings.client, stateCacheMib << 20, writeInterval)
                    // One rendering for the checkpoints taken and those sealed.
                    let (accepts, rendering) = (
                        acceptMissingHistory, ShardRendering(site: siteURL.flatMap(SiteAddress.init))
                    )
                    let folder = try await storeThreads.runIfActive { try StateFolder(stateFolder) }
                    let kept =
                        state == nil
                        ? StateCheckpoints()
                        : try await StateCheckpoints.take(
                            from: folder, partitions: partitions, kafka: client, timeout: settings.connectTimeout,
                            rendering: rendering, threadPool: storeThreads, logger: logger)
                    let stages = try await storeThreads.runIfActive {
                        try IndexStages(
                            partitions: partitions, output: published, kafka: client, acceptsMissingHistory: accepts,
                            relistEvery: .seconds(fromFlag: interval) * 10, state: folder, kept: kept,
                            storeCacheBytes: cacheBytes, storeThreads: storeThreads, pageThreads: pageThreads,
                            fence: fence, rendering: rendering, logger: logger)
                    }
                    settings.acknowledgedOffsets = stages.acknowledged
                    if case let swept = try await threadPool.runIfActive({ stages.publisher.removeStaleTemporaries() }),
                        swept > 0
                    {
                        logger.info("removed temporary files of killed writes", metadata: ["files": "\(swept)"])
                    }
                    let publisher = ShardPublisherService(
                        publisher: stages.publisher, interval: .seconds(fromFlag: writeInterval),
                        threadPool: threadPool,
                        logger: logger)
                    try await WorkerLauncher.run(
                        stages.workers, services: [publisher], settings: settings, metricsFactory: metrics,
                        logger: logger,
                        companions: worker.endpointServices(
                            registry: registry, problem: { stages.problem }, logger: logger)
                    )
                    // Stopped cleanly: what the folder holds is kept for the next start on it.
                    if state != nil {
                        await stages.seal(
                            kafka: client, timeout: settings.connectTimeout, threadPool: storeThreads, logger: logger)
                    }
                }
            }
        }
    }
}
