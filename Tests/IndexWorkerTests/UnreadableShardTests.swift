import ArtpipeRuntime
import ArtpipeTestKit
import Foundation
import IndexWorker
import KafkaClient
import PipelineContract
import SampleCollection
import Testing

@Suite("Unreadable index shards")
struct UnreadableShardTests {
    @Test(
        "a shard file that does not decode is quarantined, not fatal; its owner writes it again and a new owner reads from the start"
    )
    func quarantined() throws {
        let (output, partition) = IndexStateRereadTests.scratch("quarantine")
        let owner = try IndexStateRereadTests.owner(of: partition, in: output)
        let (message, page) = try IndexStateRereadTests.message(offset: 5, title: "kept")
        owner.apply(message, pageId: page.pageId) { $0.add(page) }
        #expect(try owner.flush())
        let shardFile = try #require(
            try FileManager.default.contentsOfDirectory(atPath: owner.directory.path).first { $0.hasSuffix(".json") })
        try Data("{not a shard".utf8).write(to: owner.directory.appendingPathComponent(shardFile))

        // Another instance merging the shards: the bad file is moved aside, the merge goes on.
        let other = try IndexStateStore(outputDirectory: output, logger: .test)
        #expect(try other.inputsOnDisk().pages.isEmpty)
        let quarantine = owner.directory.appendingPathComponent("quarantine")
        #expect(try FileManager.default.contentsOfDirectory(atPath: quarantine.path).count == 1)
        // The owner still holds the partition: its next flush writes the shard again.
        #expect(try owner.flush())
        #expect(try other.inputsOnDisk().pages.values.first?.artworks.first?.title == "kept")

        // A shard that does not decode when a new owner is assigned: read from the start.
        try Data("{still not".utf8).write(to: owner.directory.appendingPathComponent(shardFile))
        let newOwner = try IndexStateStore(outputDirectory: output, logger: .test)
        #expect(newOwner.startOffset(for: partition) == KafkaConsumerConfiguration.beginningOffset)
        #expect(try FileManager.default.contentsOfDirectory(atPath: quarantine.path).count == 2)
    }
}
