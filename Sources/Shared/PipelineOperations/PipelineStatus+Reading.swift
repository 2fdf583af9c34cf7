import ArtpipeSupport
import Foundation
import IndexWorker
import KafkaClient
import Logging
import NIOPosix
import ObjectStorage
import PipelineContract
import Synchronization

extension PipelineStatus {
    /// Reads where every page stands from the topics, from outside the consumer groups (nothing
    /// changes), and with `out` (a folder, or `s3://BUCKET[/PREFIX]`) which pages the published
    /// index holds. Each topic is streamed through, one message at a time: only the pages' states
    /// are kept, never a topic's values (gigabytes of pages at the museum's scale).
    package static func read(
        client: KafkaClientConfiguration, out: String?, timeout: Duration, logger: Logger
    ) async throws -> PipelineStatus {
        var status: PipelineStatus
        do {
            status = try await readTopics(client: client, timeout: timeout, logger: logger)
        } catch let error as KafkaError {
            throw ConfigurationError("cannot read the pipeline's topics: \(error.message)")
        }
        guard let out else { return status }
        let output: any OutputStore
        do {
            output = try await OutputLocation(out).open(patience: timeout, logger: logger)
        } catch let error as ObjectStoreError {
            throw ConfigurationError("--out: \(error)")
        }
        // The store's reads block: off the cooperative pool.
        do {
            status.add(index: try await NIOThreadPool.singleton.runIfActive { try PublishedIndex.manifest(in: output) })
        } catch let error as PublishedIndex.ReadError {
            // Never published because history is missing: that is the news.
            guard !status.missingHistory.isEmpty else { throw ConfigurationError("--out: \(error.description)") }
        }
        return status
    }

    /// The topics' part of ``read(client:out:timeout:logger:)``: pages, dead letters, retry
    /// copies still waiting, every group's lag, and the index's missing history.
    private static func readTopics(
        client: KafkaClientConfiguration, timeout: Duration, logger: Logger
    ) async throws -> PipelineStatus {
        let collected = Mutex(PipelineStatus())
        let scan = {
            (
                topic: String, starts: [Int32: Int64]?,
                visit: @escaping @Sendable (inout PipelineStatus, KafkaConsumerMessage) -> Void
            ) in
            try await KafkaTopicSnapshot.scan(
                topic, from: starts, configuration: client, timeout: timeout, logger: logger
            ) { message in collected.withLock { visit(&$0, message) } }
        }
        try await scan(ArtpipeTopic.pageRequests, nil) { $0.add(request: $1) }
        try await scan(ArtpipeTopic.pages, nil) { status, message in
            if let pageId = message.keyString { status.advance(pageId, to: .fetched) }
        }
        try await scan(ArtpipeTopic.thumbnails, nil) { status, message in
            if let pageId = message.keyString { status.advance(pageId, to: .thumbnailed) }
        }
        try await scan(ArtpipeTopic.deadLetters, nil) { $0.add(deadLetter: $1) }
        let offsets = KafkaGroupOffsets(configuration: client, logger: logger)
        // A retry copy still waits when its group has not committed past it.
        for (stage, input) in [(PipelineStage.fetch, Stage.requested), (.thumb, .fetched)] {
            for topic in stage.retryTopics {
                let rows = try await offsets.positions(group: stage.groupID, topics: [topic])
                let committed = Dictionary(
                    rows.map { ($0.topicPartition.partition, $0.committed ?? $0.low) }, uniquingKeysWith: max)
                try await scan(topic, committed) { $0.add(retry: $1, from: input) }
            }
        }
        // The index's works and artist stages read its own topics, each in a group of its own.
        let groups =
            PipelineStage.allCases.flatMap { stage in stage.inputTopics.map { (stage.groupID, $0) } }
            + [
                (IndexStages.worksGroup, ArtpipeTopic.indexWorks),
                (IndexStages.artistsGroup, ArtpipeTopic.indexArtists),
            ]
        // The index group's positions on its inputs, kept for the missing-history rule.
        var indexInputs: [KafkaOffsetResetPlan.Row] = []
        for (group, topic) in groups {
            let rows: [KafkaOffsetResetPlan.Row]
            do {
                rows = try await offsets.positions(group: group, topics: [topic])
            } catch  where ArtpipeTopic.index.contains(topic) {
                continue  // a pipeline not yet upgraded has no index topics, and no lag on them
            }
            if group == PipelineStage.index.groupID { indexInputs += rows }
            let lag = Lag(
                group: group, topic: topic, partitions: rows.map { row in row.committed.map { row.high - $0 } })
            collected.withLock { $0.lags.append(lag) }
        }
        // No changelog (a pipeline not yet upgraded): every input is needed from its start.
        let changelog =
            (try? await offsets.positions(group: PipelineStage.index.groupID, topics: [ArtpipeTopic.indexPages])) ?? []
        let gaps = MissingHistory.gaps(in: indexInputs, changelog: changelog)
        collected.withLock { $0.missingHistory = gaps }
        return collected.withLock { $0 }
    }
}
