import ArtpipeRuntime
import ArtpipeTestKit
import Foundation
import IndexWorker
import KafkaClient
import PipelineContract
import SampleCollection
import Testing

@Suite("Publishing with several instances")
struct StalePublishTests {
    @Test("files overwritten with an older build by an instance that then died are put right by a live one")
    func staleOverwriteCorrected() throws {
        let (output, partition) = IndexStateRereadTests.scratch("publish")
        let store = try IndexStateRereadTests.owner(of: partition, in: output)
        let publisher = IndexPublisher(outputDirectory: output, store: store)
        func published() throws -> PublishedFiles {
            try #require(PublishedFiles(in: output, paths: IndexLayout.publishedPaths(in: output)))
        }

        try IndexStateRereadTests.applyAndFlush(store, offset: 1, title: "first")
        #expect(try publisher.publish() > 0)
        let older = try published()
        try IndexStateRereadTests.applyAndFlush(store, offset: 2, title: "second")
        #expect(try publisher.publish() > 0)
        let newest = try published()
        let changed = newest.differences(from: older)
        #expect(!changed.isEmpty && !changed.contains(IndexLayout.manifestPath), "a title is not in the manifest")

        // Another instance, which had read the shards before the second write, publishes last and dies.
        for path in changed { try Data(older.files[path]!).write(to: output.appendingPathComponent(path)) }
        #expect(try publisher.changedSinceLastBuild(), "the live instance notices the files changed under it")
        #expect(try publisher.publish() == changed.count)
        #expect(try published() == newest)
        #expect(try !publisher.changedSinceLastBuild())
        #expect(try publisher.publish() == 0)
    }
}
