import ArtpipeTestKit
import FetchWorker
import Foundation
import HTTPFetching
import HTTPTestKit
import PipelineContract
import Testing

/// Query values and tokens reach the services as a form decoder reads them: a `+` is sent as
/// `%2B`, so it does not arrive as a space.
@Suite("Query values encoded as forms are read", .timeLimit(.minutes(1)))
struct FormEncodingTests {
    static let awkward = "c++ & co/é=1"

    @Test("every source sends a query value with +, &, /, = and non-ASCII so the server reads it back unchanged")
    func queryValues() async throws {
        let server = try await TestHTTPServer.start { _ in TestHTTPServer.Response(status: 404) }
        let base = URL(string: server.baseURL)!
        var configuration = HTTPFetcherConfiguration()
        configuration.maxAttempts = 1
        let http = HTTPFetcher(configuration: configuration, redaction: SecretRedaction(secrets: []), logger: .test)
        let sources: [(any CollectionSource, String)] = [
            (LegacyCollectionSource(baseURL: base, apiKey: "k", imageEdge: 512, http: http), "q"),
            (SearchCollectionSource(searchBase: base, dataBase: base, imageEdge: 512, http: http), "title"),
            (FlickrSearchSource(endpoint: base, apiKey: "k", imageEdge: 512, http: http), "text"),
            (ITunesSearchSource(endpoint: base, imageEdge: 512, http: http), "term"),
            (
                OAICollectionSource(
                    endpoint: base.appendingPathComponent("oai"), language: "en", imageEdge: 512, http: http,
                    logger: .test), "set"
            ),
        ]
        for (source, parameter) in sources {
            let request = PageRequest(
                crawlId: "t", source: source.name, query: [parameter: Self.awkward], page: 1, pageSize: 10)
            _ = try? await source.fetch(request)
        }
        try await http.shutdown()
        await server.stop()
        let seen = server.requests
        #expect(seen.count == sources.count)
        for (request, (source, parameter)) in zip(seen, sources) {
            #expect(
                request.query[parameter] == Self.awkward,
                "\(source.name) sent \(parameter)=\(request.query[parameter] ?? "nothing")")
        }
    }
}
