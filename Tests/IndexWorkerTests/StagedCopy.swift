import ArtpipeRuntime
import ArtpipeTestKit
import Foundation
import KafkaClient
import KafkaTestKit
import ObjectStorage
import PipelineContract
import Testing

@testable import IndexWorker

/// One copy of the index worker's three stages, each its own consumer group member.
final class StagedCopy: Sendable {
    let pages: PagesStage
    let artists: ArtistsStage
    let publisher: ShardPublisher
    private let workers: [any StoppableWorker]
    /// The copy's own state folder, as each copy of the worker has on its own disk.
    private let state = FileManager.default.temporaryDirectory.appendingPathComponent(
        "staged-copy-\(UUID().uuidString)")

    init(brokers: String, output: any OutputStore) throws {
        let stages = try IndexStages(
            partitions: IndexStagesTests.partitions, output: output, kafka: KafkaClientConfiguration(brokers: brokers),
            state: state, storeThreads: .indexTests, pageThreads: .indexTests, logger: .test)
        let (pages, works, artists) = (stages.pages, stages.works, stages.artists)
        workers = [
            try InProcessWorker(
                brokers: brokers, group: "artpipe-index", topics: PipelineStage.index.inputTopics, handler: pages,
                configureConsumer: pages.configure),
            try InProcessWorker(
                brokers: brokers, group: "artpipe-index-works", topics: [ArtpipeTopic.indexWorks], handler: works,
                configureConsumer: works.configure),
            try InProcessWorker(
                brokers: brokers, group: "artpipe-index-artists", topics: [ArtpipeTopic.indexArtists],
                handler: artists, configureConsumer: artists.configure),
        ]
        (self.pages, self.artists, publisher) = (pages, artists, stages.publisher)
        #expect(
            stages.workers.map(\.checkedTopics) == [PipelineStage.index.inputTopics]
                + ArtpipeTopic.index.dropFirst().map { [$0] })
    }

    func stop() async throws {
        for worker in workers { try await worker.stop() }
        try? FileManager.default.removeItem(at: state)
    }
}

protocol StoppableWorker: Sendable {
    func stop() async throws
}

extension InProcessWorker: StoppableWorker {}
