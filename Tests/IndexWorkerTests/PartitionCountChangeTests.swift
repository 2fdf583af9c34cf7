import ArtpipeRuntime
import ArtpipeTestKit
import Foundation
import IndexWorker
import KafkaClient
import PipelineContract
import SampleCollection
import Testing

@Suite("Merging shards after a partition-count change")
struct PartitionCountChangeTests {
    static func message(_ page: Page, partition: Int32, offset: Int64, producedAt: Int64) throws -> KafkaConsumerMessage
    {
        let record = try MessageCodec.record(page, topic: ArtpipeTopic.pages)
        return KafkaConsumerMessage(
            topic: ArtpipeTopic.pages, partition: partition, offset: offset, key: record.key, value: record.value,
            headers: record.headers, timestampMilliseconds: producedAt)
    }

    @Test(
        "one page in two partitions' shards: the merge keeps the newest input, whichever shard file sorts first",
        arguments: [(Int32(0), Int32(5)), (Int32(5), Int32(0))])
    func newestInputWins(olderPartition: Int32, newerPartition: Int32) async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("repartition"))
        let store = try IndexStateStore(outputDirectory: output, logger: .test)
        let handler = IndexMessageHandler(store: store)
        let (_, older) = try IndexStateRereadTests.message(offset: 0, title: "older")
        let (_, newer) = try IndexStateRereadTests.message(offset: 0, title: "newer")
        // The page's key hashed to another partition once the topic had more of them.
        for (page, partition, producedAt) in [(older, olderPartition, 1_000), (newer, newerPartition, 2_000)] {
            let message = try Self.message(page, partition: partition, offset: 3, producedAt: Int64(producedAt))
            _ = store.startOffset(for: KafkaTopicPartition(topic: ArtpipeTopic.pages, partition: partition))
            _ = try await handler.handle(
                try handler.decode(message), context: MessageContext(message: message, attempt: 1, logger: .test))
        }
        #expect(try store.flush())
        let merged = try IndexStateStore(outputDirectory: output, logger: .test).inputsOnDisk()
        #expect(merged.pages.values.first?.artworks.first?.title == "newer")
    }
}
