import ArtpipeRuntime
import ArtpipeTestKit
import Foundation
import IndexWorker
import KafkaClient
import PipelineContract
import SampleCollection
import Testing

@Suite("Reading the state beside a publisher")
struct ReadingBesidePublisherTests {
    @Test("reading the inputs on disk does not hide a change from the publisher of the same store")
    func changeStillPublished() throws {
        let (output, partition) = IndexStateRereadTests.scratch("beside")
        let store = try IndexStateRereadTests.owner(of: partition, in: output)
        let publisher = IndexPublisher(outputDirectory: output, store: store)
        try IndexStateRereadTests.applyAndFlush(store, offset: 1, title: "first")
        #expect(try publisher.publish() > 0)

        try IndexStateRereadTests.applyAndFlush(store, offset: 2, title: "second")
        #expect(try store.inputsOnDisk().pages.values.first?.artworks.first?.title == "second")
        #expect(try publisher.publish() > 0)
        let line = try PublishedIndex.read(from: output).index.artists.first?.works.first
        #expect(line?.title == "second")
    }
}
