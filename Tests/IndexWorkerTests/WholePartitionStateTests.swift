import ArtpipeRuntime
import ArtpipeTestKit
import Foundation
import KafkaClient
import PipelineContract
import SampleCollection
import Testing

@testable import IndexWorker

@Suite("Index state of the earlier form")
struct WholePartitionStateTests {
    @Test("a whole-partition shard file is read, cut into parts on the next flush, and removed; its offset is kept")
    func upgraded() throws {
        let (output, partition) = IndexStateRereadTests.scratch("upgrade")
        let store = try IndexStateStore(outputDirectory: output, logger: .test)
        var whole = IndexShard(topic: ArtpipeTopic.pages, partition: 0, offset: 7)
        let pages = (1...20).map { number in
            ArtistIndexTests.page(
                number, [RecordVersionsTests.harvestPage("x", number, [("\(number)", "2026", "t")]).artworks[0]])
        }
        for page in pages { whole.inputs.add(page, producedAt: 5) }
        let wholeFile = store.directory.appendingPathComponent(whole.fileName)
        try JSONEncoder().encode(whole).write(to: wholeFile)

        #expect(store.startOffset(for: partition) == 8)
        #expect(try store.inputsOnDisk() == whole.inputs)
        #expect(try store.flush())
        #expect(!FileManager.default.fileExists(atPath: wholeFile.path))
        let parts = try FileManager.default.contentsOfDirectory(atPath: store.directory.path).filter {
            IndexShard.part(ofFile: $0, ArtpipeTopic.pages, 0) != nil
        }
        #expect(parts.count == Set(pages.map { IndexShard.part(of: $0.pageId) }).count && parts.count > 1)

        let restarted = try IndexStateStore(outputDirectory: output, logger: .test)
        #expect(restarted.startOffset(for: partition) == 8)
        #expect(try restarted.inputsOnDisk() == whole.inputs)
        #expect(try !restarted.flush(), "nothing changed")
    }
}
