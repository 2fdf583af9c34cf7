import ArtpipeRuntime
import ArtpipeTestKit
import HTTPTestKit
import KafkaClient
import PipelineContract
import SampleImages
import Testing

@testable import ThumbWorker

/// Any OAI-PMH repository's records name their providers' image hosts; the other sources'
/// images come from hosts known in advance.
@Suite("Image hosts the records name")
struct ImageHostsTests {
    @Test("a page of a source that names its image hosts reaches a host no list names; another source's does not")
    func providersHosts() async throws {
        let jpeg = try SampleImage.noisy(width: 300, height: 200, seed: 5)
        // Loopback stands in for a provider's host; no host is on the list.
        let images = try await LoopbackImages.start(
            ["/work.jpg": jpeg], sizes: [100], label: "provider-hosts", imageHosts: ([], ["oai-pmh"]))
        defer { Task { await images.stop() } }
        func thumbnails(source: String) async throws -> PageThumbnails {
            let request = PageRequest(crawlId: "c", source: source, query: [:], page: 1, pageSize: 1)
            let page = Page(request: request, total: 1, artworks: [images.artwork("SK-\(source)", "/work.jpg")])
            let message = KafkaConsumerMessage(
                topic: ArtpipeTopic.pages, partition: 0, offset: 0, key: nil,
                value: try MessageCodec.record(page, topic: ArtpipeTopic.pages).value)
            let outputs = try await images.handler.handle(
                images.handler.decode(message), context: MessageContext(message: message, attempt: 1, logger: .test))
            let output = try #require(outputs.first)
            return try MessageCodec.decode(
                PageThumbnails.self,
                from: KafkaConsumerMessage(
                    topic: output.topic, partition: 0, offset: 0, key: output.key, value: output.value))
        }
        let repository = try await thumbnails(source: "oai-pmh")
        #expect(repository.items.map(\.status) == [.ok], "\(repository.items.map(\.reason))")
        let museum = try await thumbnails(source: "rijksmuseum-oai")
        #expect(museum.items.map(\.status) == [.failed])
        #expect(museum.items.first?.reason?.contains("not an allowed host") == true, "\(museum.items.map(\.reason))")
    }
}
