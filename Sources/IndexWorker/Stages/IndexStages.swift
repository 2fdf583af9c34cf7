import ArtpipeRuntime
import ArtpipeSupport
import Foundation
import KafkaClient
import Logging
import NIOPosix
import ObjectStorage
import PipelineContract

/// One copy of the staged index (docs/architecture.md, "The index at scale"): its three
/// stages, each a worker in a consumer group of its own, and the publisher of what it holds.
package struct IndexStages: Sendable {
    package let pages: PagesStage
    package let works: WorksStage
    package let artists: ArtistsStage
    package let publisher: ShardPublisher
    /// What the copy's producer had acknowledged, for the publisher (``WrittenEnds``): give it
    /// to the producer the stages write through (``WorkerLaunchSettings/acknowledgedOffsets``).
    package let acknowledged = KafkaAcknowledgedOffsets()
    /// Held for the copy's life: no other process uses its files.
    let stateFolder: StateFolder
    /// How the copy renders its shards: its checkpoints record it.
    let rendering: ShardRendering
    /// What the copy asks before it writes a file or sends a row, when it runs one: nothing,
    /// while a stall may have cost it its partitions (``GroupMembershipFence``).
    package let fence: GroupMembershipFence?

    /// The stages' files' cache in memory, by default: what is hot of the works' state.
    package static let defaultStateCacheBytes = 64 << 20

    /// The works and artist stages' consumer groups (the pages stage's is the index worker's).
    package static let worksGroup = "\(PipelineStage.index.groupID)-works"
    package static let artistsGroup = "\(PipelineStage.index.groupID)-artists"

    /// - Parameter partitions: the partition count of the index's topics (``partitionCount``).
    /// - Parameter acceptsMissingHistory: go on where an input no longer holds what the index
    ///   needs (``HistoryGaps``), rather than hold the partition back.
    /// - Parameter relistEvery: how often the publisher lists the output (the command: ten write intervals).
    /// - Parameter state: the folder of this copy's own state (``PageEntryFile``, ``WorkStore``,
    ///   ``ShardStates``), its files made afresh but for those `kept` vouches for.
    /// - Parameter kept: the checkpoints taken from `state` and checked (``StateCheckpoints``). A
    ///   kept file that does not open as this version's (another schema) makes every file afresh,
    ///   said in the log.
    /// - Parameter storeThreads: where the works' and the lines' disk calls run.
    /// - Parameter pageThreads: where the pages' entries' disk calls run: apart, so that a new page's
    ///   entry never waits behind a publish round reading a shard's lines.
    /// - Parameter fence: asked before every write to the output (and, through
    ///   ``WorkerLaunchSettings/fence``, every send).
    /// - Parameter rendering: how the copy renders its shards: the build, and where the gallery is
    ///   served (the publisher writes a sitemap of its pages there, and their Open Graph
    ///   properties); its checkpoints record it. Give the one its checkpoints were taken with.
    package init(
        partitions: Int, output: any OutputStore, kafka: KafkaClientConfiguration, acceptsMissingHistory: Bool = false,
        relistEvery: Duration = .seconds(1), state: StateFolder, kept: StateCheckpoints = StateCheckpoints(),
        storeCacheBytes: Int = defaultStateCacheBytes, storeThreads: NIOThreadPool, pageThreads: NIOThreadPool,
        fence: GroupMembershipFence? = nil, rendering: ShardRendering = ShardRendering(site: nil), logger: Logger
    ) throws {
        stateFolder = state
        self.rendering = rendering
        let state = state.url
        self.fence = fence
        // The cache is shared between the stages' three files.
        let cacheBytes = storeCacheBytes / 3
        let stages = { (kept: StateCheckpoints) in
            (
                PagesStage(
                    partitions: partitions, kafka: kafka, acceptsMissingHistory: acceptsMissingHistory,
                    entries: try PageEntryFile(
                        path: state.appendingPathComponent(StateFile.pages.name).path, cacheBytes: cacheBytes,
                        kept: kept[.pages]),
                    storeThreads: pageThreads, logger: logger),
                WorksStage(
                    states: try WorkStore(
                        folder: state, shards: IndexShards(count: partitions), cacheBytes: cacheBytes,
                        threadPool: storeThreads, kept: kept[.works]), kafka: kafka, logger: logger),
                ArtistsStage(
                    shards: try ShardStates(
                        folder: state, cacheBytes: cacheBytes, threadPool: storeThreads,
                        layout: IndexShards(count: partitions), kept: kept[.lines]),
                    kafka: kafka, logger: logger)
            )
        }
        do {
            (pages, works, artists) = try stages(kept)
        } catch  where !kept.isEmpty {
            logger.warning(
                "state files made afresh, their partitions restored in full: a kept file did not open",
                metadata: ["error": "\(error)"])
            (pages, works, artists) = try stages(StateCheckpoints())
        }
        publisher = ShardPublisher(
            output: output, partitions: partitions, pages: pages, works: works, artists: artists, kafka: kafka,
            relistEvery: relistEvery, acknowledged: acknowledged, fence: fence, site: rendering.site, logger: logger)
    }

    /// The topics whose partitions are co-partitioned with the index's: one count for all.
    package static let copartitioned = PipelineStage.index.inputTopics + ArtpipeTopic.index

    /// What keeps the index from being assembled, for `/healthz`; nil when nothing does: a
    /// history missing, or a partition held because its restore failed.
    package var problem: String? {
        if let gap = pages.gaps.all.first { return "history missing: \(gap)" }
        let stages = [("pages", pages.progress), ("works", works.progress), ("artists", artists.progress)]
        for (stage, progress) in stages {
            if let (partition, reason) = progress.heldReasons.min(by: { $0.key < $1.key }) {
                return "\(stage) partition \(partition) held: its restore failed (\(reason))"
            }
        }
        return nil
    }

    /// The three workers, for ``WorkerLauncher``.
    package var workers: [any LaunchableWorker] {
        let (pages, works, artists) = (self.pages, self.works, self.artists)
        return [
            WorkerLauncher.Worker(
                name: PipelineStage.index.workerName, groupID: PipelineStage.index.groupID,
                topics: PipelineStage.index.inputTopics, handler: pages,
                configureConsumer: { pages.configure(&$0) }),
            WorkerLauncher.Worker(
                name: "\(PipelineStage.index.workerName)-works", groupID: Self.worksGroup,
                topics: [ArtpipeTopic.indexWorks], handler: works,
                configureConsumer: { works.configure(&$0) }),
            WorkerLauncher.Worker(
                name: "\(PipelineStage.index.workerName)-artists", groupID: Self.artistsGroup,
                topics: [ArtpipeTopic.indexArtists], handler: artists,
                configureConsumer: { artists.configure(&$0) }),
        ]
    }

    /// The partition count the index's topics share, asked of the brokers.
    package static func partitionCount(kafka: KafkaClientConfiguration, timeout: Duration, logger: Logger)
        async throws -> Int
    {
        try partitionCount(in: try await KafkaBrokerCheck.check(client: kafka, timeout: timeout, logger: logger))
    }

    /// The partition count the index's topics share, from the brokers' metadata. A missing topic, or
    /// counts that differ (pages, thumbnails and dead letters are joined partition by
    /// partition), is a configuration error that says which.
    package static func partitionCount(in metadata: KafkaMetadata) throws -> Int {
        let missing = copartitioned.filter { metadata.partitionsByTopic[$0] == nil }
        guard missing.isEmpty else {
            throw ConfigurationError(
                "topic \(missing.joined(separator: ", ")) does not exist; create it with `artpipe topics create`")
        }
        let counts = Dictionary(grouping: copartitioned, by: { metadata.partitionsByTopic[$0]! })
        guard counts.count == 1, let count = counts.keys.first else {
            let listed = counts.sorted { $0.key < $1.key }.map { "\($0.value.joined(separator: ", ")): \($0.key)" }
            throw ConfigurationError(
                "the index reads its topics partition by partition, so they need one partition count; they have \(listed.joined(separator: "; "))"
            )
        }
        return count
    }
}
