import ArtpipeRuntime
import ArtpipeSupport
import ArtpipeTestKit
import FetchWorker
import Foundation
import HTTPFetching
import HTTPTestKit
import KafkaClient
import PipelineContract
import Testing

@Suite("A cursor chain's failed page", .timeLimit(.minutes(1)))
struct CursorChainFailureTests {
    @Test(
        "a cursor-paged page that fails says the crawl's later pages wait on it, for good and for the moment alike",
        arguments: [(404, true), (403, false)])
    func saysTheChainStops(status: Int, forGood: Bool) async throws {
        let server = try await TestHTTPServer.start { _ in TestHTTPServer.Response(status: status) }
        defer { Task { await server.stop() } }
        var configuration = HTTPFetcherConfiguration()
        configuration.maxAttempts = 1
        let http = HTTPFetcher(configuration: configuration, redaction: SecretRedaction(secrets: []), logger: .test)
        let source = OAICollectionSource(
            endpoint: URL(string: "\(server.baseURL)/oai")!, language: "en", imageEdge: 512, http: http, logger: .test)
        let handler = PageFetchHandler(sources: [source], redaction: SecretRedaction(secrets: []), chains: nil)
        let request = PageRequest(crawlId: "c", source: source.name, query: [:], page: 1, pageSize: 200)
        let message = KafkaConsumerMessage(
            topic: ArtpipeTopic.pageRequests, partition: 0, offset: 0, key: nil,
            value: try MessageCodec.record(request, topic: ArtpipeTopic.pageRequests).value)
        let failure = await #expect(throws: HandlerFailure.self) {
            _ = try await handler.handle(request, context: MessageContext(message: message, attempt: 1, logger: .test))
        }
        #expect(failure?.failureClass.isForGood == forGood, "\(String(describing: failure))")
        #expect(failure?.reason.hasSuffix(PageFetchHandler.chainNote) == true, "\(String(describing: failure))")
        try await http.shutdown()
    }
}
