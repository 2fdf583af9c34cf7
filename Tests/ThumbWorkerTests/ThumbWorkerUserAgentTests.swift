import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import KafkaClient
import PipelineContract
import Testing

/// The image hosts see far more requests from us than the API: they are told who asks.
@Suite("thumb-worker's User-Agent", .timeLimit(.minutes(2)))
struct ThumbWorkerUserAgentTests {
    @Test("image downloads send artpipe's version and --contact, as the fetcher does")
    func userAgent() async throws {
        let cluster = try TestCluster()
        for topic in ArtpipeTopic.all { try cluster.broker.createTopic(topic, partitions: 1) }
        let server = try await TestHTTPServer.start { _ in TestHTTPServer.Response(status: 404) }
        let request = PageRequest(crawlId: "c", source: "rijksmuseum-oai", query: [:], page: 1, pageSize: 1)
        let page = Page(
            request: request, total: 1,
            artworks: [
                Artwork(
                    objectNumber: "SK-A-1", title: "T", artist: "A", imageURL: server.baseURL + "/a.jpg", width: nil,
                    height: nil, position: 0)
            ])
        try await cluster.producer.send([try MessageCodec.record(page, topic: ArtpipeTopic.pages)])
        let out = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("thumbs-ua"))
        let worker = try ChildProcess(
            "artpipe",
            [
                "thumb-worker", "--brokers", cluster.brokers, "--out", out.path, "--allow-host", "127.0.0.1",
                "--allow-private-hosts", "--contact", "mailto:ops@example.org",
            ] + EmbeddedBrokerSettings.flags)
        defer { worker.stop() }
        try await waitUntil("the image to be asked for", timeout: .seconds(60)) { !server.requests.isEmpty }
        let agent = server.requests.first?.headers["user-agent"] ?? ""
        #expect(agent.hasPrefix("artpipe/") && agent.hasSuffix(" (+mailto:ops@example.org)"), "\(agent)")
        #expect(agent != "artpipe/1")
        worker.signal(SIGTERM)
        #expect(try await worker.waitForExit(timeout: .seconds(40)) == 0)
        await server.stop()
        await cluster.shutdown()
    }
}
