import ArtpipeRuntime
import ArtpipeTestKit
import Foundation
import KafkaClient
import KafkaTestKit
import ObjectStorage
import PipelineContract
import Synchronization
import Testing

@testable import IndexWorker

/// One copy of the index worker's three stages, each its own consumer group member.
final class StagedCopy: Sendable {
    let pages: PagesStage
    let artists: ArtistsStage
    let publisher: ShardPublisher
    private let workers: [any StoppableWorker]
    /// The artist stage's worker, while it runs: stopped and started again on its own, the copy
    /// loses its shards and takes them back with the same publisher.
    private let artistsWorker: Mutex<InProcessWorker<ArtistsStage>?>
    private let brokers: String
    /// The copy's own state folder, as each copy of the worker has on its own disk.
    private let state = FileManager.default.temporaryDirectory.appendingPathComponent(
        "staged-copy-\(UUID().uuidString)")

    init(brokers: String, output: any OutputStore) throws {
        let stages = try IndexStages(
            partitions: IndexStagesTests.partitions, output: output, kafka: KafkaClientConfiguration(brokers: brokers),
            state: try StateFolder(state), storeThreads: .indexTests, pageThreads: .indexTests, logger: .test)
        let (pages, works, artists) = (stages.pages, stages.works, stages.artists)
        workers = [
            try InProcessWorker(
                brokers: brokers, group: "artpipe-index", topics: PipelineStage.index.inputTopics, handler: pages,
                acknowledged: stages.acknowledged, configureConsumer: pages.configure),
            try InProcessWorker(
                brokers: brokers, group: "artpipe-index-works", topics: [ArtpipeTopic.indexWorks], handler: works,
                acknowledged: stages.acknowledged, configureConsumer: works.configure),
        ]
        artistsWorker = Mutex(try Self.artistsWorker(brokers: brokers, artists: artists))
        (self.pages, self.artists, publisher, self.brokers) = (pages, artists, stages.publisher, brokers)
        #expect(
            stages.workers.map(\.checkedTopics) == [
                PipelineStage.index.inputTopics, [ArtpipeTopic.indexWorks], [ArtpipeTopic.indexArtists],
            ])
    }

    private static func artistsWorker(brokers: String, artists: ArtistsStage) throws -> InProcessWorker<ArtistsStage> {
        try InProcessWorker(
            brokers: brokers, group: "artpipe-index-artists", topics: [ArtpipeTopic.indexArtists], handler: artists,
            configureConsumer: artists.configure)
    }

    /// Stops the artist stage alone: its shards go to the other copies.
    func stopArtists() async throws {
        let worker = artistsWorker.withLock { worker in
            defer { worker = nil }
            return worker
        }
        try await worker?.stop()
    }

    /// Starts the artist stage again, in the same copy.
    func startArtists() throws {
        let worker = try Self.artistsWorker(brokers: brokers, artists: artists)
        artistsWorker.withLock { $0 = worker }
    }

    func stop() async throws {
        for worker in workers { try await worker.stop() }
        try await stopArtists()
        try? FileManager.default.removeItem(at: state)
    }
}

protocol StoppableWorker: Sendable {
    func stop() async throws
}

extension InProcessWorker: StoppableWorker {}
