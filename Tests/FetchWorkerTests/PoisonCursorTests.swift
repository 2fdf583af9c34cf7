import ArtpipeTestKit
import FetchWorker
import Foundation
import HTTPFetching
import HTTPTestKit
import PipelineContract
import Testing

/// Numbers read from a cursor are checked like page numbers: a request whose cursor holds
/// nonsense is poison (dead-lettered with the reason), never a trap that crash-loops the partition.
@Suite("Poison cursors", .timeLimit(.minutes(1)))
struct PoisonCursorTests {
    static let cursors = [
        "pageToken=9223372036854775807", "pageToken=-9223372036854775808", "pageToken=-1", "pageToken=many",
        "last=0", "last=99999999999999999999",
    ]

    @Test("iTunes offsets and Flickr range starts out of range are refused before any request", arguments: cursors)
    func refused(_ cursor: String) async throws {
        let server = try await TestHTTPServer.start { _ in TestHTTPServer.Response(status: 500) }
        let http = HTTPFetcher(
            configuration: HTTPFetcherConfiguration(), redaction: SecretRedaction(secrets: []), logger: .test)
        let base = URL(string: server.baseURL)!
        let sources: [any CollectionSource] = [
            ITunesSearchSource(endpoint: base, imageEdge: 512, http: http),
            FlickrSearchSource(endpoint: base, apiKey: "k", imageEdge: 512, http: http),
            SearchCollectionSource(searchBase: base, dataBase: base, imageEdge: 512, http: http),
        ]
        for source in sources {
            let request = PageRequest(
                crawlId: "c", source: source.name, query: ["term": "x", "text": "x"], page: 3, pageSize: 50,
                cursor: cursor)
            // The Search API reads its token as text: only `last` is a number there.
            if source is SearchCollectionSource, cursor.hasPrefix("pageToken") { continue }
            await #expect(throws: SourceFormatError.self, "\(source.name) with \(cursor)") {
                _ = try await source.fetch(request)
            }
        }
        #expect(server.requests.isEmpty)
        try await http.shutdown()
        await server.stop()
    }
}
