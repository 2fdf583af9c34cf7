import ArtpipeRuntime
import ArtpipeTestKit
import Foundation
import KafkaClient
import PipelineContract
import SampleCollection
import Testing

@testable import IndexWorker

@Suite("Index state during a re-read")
struct IndexStateRereadTests {
    static func message(offset: Int64, title: String) throws -> (KafkaConsumerMessage, Page) {
        let request = PageRequest(crawlId: "c", source: "rijksmuseum", query: [:], page: 1, pageSize: 1)
        let page = Page(
            request: request, total: 1,
            artworks: [
                Artwork(
                    objectNumber: "SK-A-1", title: title, artist: "A", imageURL: nil, width: nil, height: nil,
                    position: 0)
            ])
        let record = try MessageCodec.record(page, topic: ArtpipeTopic.pages)
        return (
            KafkaConsumerMessage(
                topic: ArtpipeTopic.pages, partition: 0, offset: offset, key: record.key, value: record.value,
                headers: record.headers),
            page
        )
    }

    /// Applies the page `message(offset:title:)` makes and writes the state; expects a write.
    static func applyAndFlush(_ store: IndexStateStore, offset: Int64, title: String) throws {
        let (message, page) = try message(offset: offset, title: title)
        store.apply(message, pageId: page.pageId) { $0.add(page) }
        #expect(try store.flush())
    }

    /// A new output folder, and the partition the tests apply to.
    /// A store on `output` that has been assigned `partition`, as a worker's is: claimed and loaded.
    static func owner(of partition: KafkaTopicPartition, in output: URL) throws -> IndexStateStore {
        let store = try IndexStateStore(outputDirectory: output, logger: .test)
        _ = store.startOffset(for: partition)
        return store
    }

    static func scratch(_ label: String) -> (output: URL, partition: KafkaTopicPartition) {
        (
            FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make(label)),
            KafkaTopicPartition(topic: ArtpipeTopic.pages, partition: 0)
        )
    }

    @Test("a shard replaced on disk is decoded again, even at the same size and modification time; others are kept")
    func replacedShardIsDecodedAgain() throws {
        let (output, partition) = IndexStateRereadTests.scratch("redecode")
        let writer = try IndexStateStore(outputDirectory: output, logger: .test)
        let reader = try IndexStateStore(outputDirectory: output, logger: .test)
        _ = writer.startOffset(for: partition)
        let (first, firstPage) = try Self.message(offset: 1, title: "first")
        writer.apply(first, pageId: firstPage.pageId) { $0.add(firstPage) }
        #expect(try writer.flush())
        #expect(try reader.inputsOnDisk().pages.values.first?.artworks.first?.title == "first")
        let shard = writer.directory.appendingPathComponent(
            IndexShard.partFileName(ArtpipeTopic.pages, 0, IndexShard.part(of: firstPage.pageId))
        ).path
        var before = stat()
        #expect(stat(shard, &before) == 0)

        // Same length, same offset digits: the same size; then the old modification time put back.
        let (later, laterPage) = try Self.message(offset: 2, title: "later")
        writer.apply(later, pageId: laterPage.pageId) { $0.add(laterPage) }
        #expect(try writer.flush())
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, shard, &times, 0) == 0)
        var after = stat()
        #expect(stat(shard, &after) == 0)
        #expect(after.st_size == before.st_size)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        #expect(try reader.inputsOnDisk().pages.values.first?.artworks.first?.title == "later")
        // Unchanged since: the same inputs again.
        #expect(try reader.inputsOnDisk().pages.values.first?.artworks.first?.title == "later")
    }

    @Test("a re-read interrupted by a SIGKILL: the newer version is read again, not skipped")
    func interruptedReread() throws {
        let (output, partition) = IndexStateRereadTests.scratch("reread")
        let store = try IndexStateRereadTests.owner(of: partition, in: output)
        let older = try Self.message(offset: 2, title: "older")
        let newer = try Self.message(offset: 8, title: "newer")
        for (message, page) in [older, newer] { store.apply(message, pageId: page.pageId) { $0.add(page) } }
        #expect(try store.flush())

        // A replay from offset 0 gets as far as the older version, is flushed, and is killed.
        let replaying = try IndexStateStore(outputDirectory: output, logger: .test)
        #expect(replaying.startOffset(for: partition, committed: 0) == 0)
        replaying.apply(older.0, pageId: older.1.pageId) { $0.add(older.1) }
        #expect(try replaying.flush())

        let restarted = try IndexStateStore(outputDirectory: output, logger: .test)
        let start = restarted.startOffset(for: partition)
        #expect(start <= 8, "starts at \(start): the newer version at offset 8 would never be applied again")
        #expect(try restarted.inputsOnDisk().pages.values.first?.artworks.first?.title == "older")
    }
}
