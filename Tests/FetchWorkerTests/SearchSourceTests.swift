import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import PipelineContract
import Testing

@testable import FetchWorker
@testable import HTTPFetching

@Suite("Search API and Linked Art", .serialized, .timeLimit(.minutes(2)))
struct SearchSourceTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        try LegacyFixtureTests.fixture(name)
    }

    static let person = """
        {"id": "https://id.rijksmuseum.nl/21029638", "type": "Person", "identified_by": [
          {"type": "Name", "content": "Wijnberg, Nicolaas"},
          {"type": "Name", "content": "Nicolaas Wijnberg", "classified_as": [{"id": "http://vocab.getty.edu/aat/300404670"}]}]}
        """
    static let digitalObject = """
        {"id": "https://id.rijksmuseum.nl/500711199912110510799100", "type": "DigitalObject",
         "access_point": [{"id": "https://iiif.micr.io/AbCdE/full/max/0/default.jpg", "type": "DigitalObject"}]}
        """

    /// Serves the recorded object and visual item, plus a person and a digital object made for the test.
    static func linkedArtServer() async throws -> TestHTTPServer {
        let object = try fixture("new_linked-art_HumanMadeObject_2001__maksym-oliinyk2")
        let visual = try fixture("new_linked-art_VisualItem_202107928__maksym-oliinyk2")
        return try await TestHTTPServer.start { request in
            switch request.path {
            case "/2001": TestHTTPServer.Response(body: object)
            case "/2021": TestHTTPServer.Response(body: visual)
            case "/21029638": .json(person)
            case "/500711199912110510799100": .json(digitalObject)
            default: TestHTTPServer.Response(status: 404)
            }
        }
    }

    @Test("the recorded search page gives 100 ids, the total and the next page's token")
    func searchPage() throws {
        let page = try LinkedArt.decoder.decode(
            LinkedArt.SearchPage.self, from: Data(Self.fixture("new_search-api_page1__maksym-oliinyk2")))
        #expect(page.orderedItems.count == 100)
        #expect(page.orderedItems.first?.id == "https://id.rijksmuseum.nl/2001")
        #expect(page.partOf?.totalItems == 838_147)
        let token = try #require(page.next?.id.flatMap(SearchCollectionSource.pageToken(in:)))
        #expect(token.hasPrefix("eyJ0b2tlbiI6"))
    }

    @Test("a recorded Linked Art object resolves to its object number, title, creator and IIIF image")
    func resolveObject() async throws {
        let server = try await Self.linkedArtServer()
        let http = HTTPFetcher(
            configuration: HTTPFetcherConfiguration(), redaction: SecretRedaction(secrets: []), logger: .test)
        let source = SearchCollectionSource(
            searchBase: URL(string: server.baseURL)!, idBase: URL(string: server.baseURL)!, imageEdge: 512, http: http)
        // The recorded object shows visual item 2021; the recorded visual item is another object's, served in its place.
        let artwork = try await source.artwork(id: "https://id.rijksmuseum.nl/2001", position: 4)
        #expect(artwork.objectNumber == "RP-P-2010-222-3315")
        #expect(artwork.title == "Before, Behind, Between, Above, Below")
        #expect(artwork.artist == "Nicolaas Wijnberg")
        #expect(artwork.imageURL == "https://iiif.micr.io/AbCdE/full/!512,512/0/default.jpg")
        #expect(artwork.position == 4)
        #expect(server.requests.allSatisfy { $0.headers["accept"] == "application/ld+json" })

        // The creator is cached: a second object by the same person asks for the person no more.
        _ = try await source.artwork(id: "https://id.rijksmuseum.nl/2001", position: 5)
        #expect(server.requests.filter { $0.path == "/21029638" }.count == 1)
        try await http.shutdown()
        await server.stop()
    }

    @Test("a cursor-paged crawl: page 1 is planned, FetchWorker follows the cursor to the last page")
    func cursorCrawl() async throws {
        let cluster = try TestCluster()
        for topic in ArtpipeTopic.all { try cluster.broker.createTopic(topic, partitions: 3) }
        @Sendable func object(_ number: Int) -> String {
            """
            {"id": "https://id.rijksmuseum.nl/\(number)", "type": "HumanMadeObject", "identified_by": [
              {"type": "Identifier", "content": "OBJ-\(number)", "classified_as": [{"id": "http://vocab.getty.edu/aat/300312355"}]},
              {"type": "Name", "content": "Title \(number)"}]}
            """
        }
        let server = try await TestHTTPServer.start { request in
            let base = "https://data.rijksmuseum.nl/search/collection"
            switch (request.path, request.query["pageToken"]) {
            case ("/search/collection", nil):
                return .json(
                    """
                    {"type": "OrderedCollectionPage", "partOf": {"totalItems": 3},
                     "orderedItems": [{"id": "https://id.rijksmuseum.nl/1"}, {"id": "https://id.rijksmuseum.nl/2"}],
                     "next": {"id": "\(base)?pageToken=second"}}
                    """)
            case ("/search/collection", "second"?):
                return .json(
                    """
                    {"type": "OrderedCollectionPage", "partOf": {"totalItems": 3}, "orderedItems": [{"id": "https://id.rijksmuseum.nl/3"}]}
                    """)
            case (let path, nil) where Int(path.dropFirst()) != nil:
                return .json(object(Int(path.dropFirst())!))
            default:
                return TestHTTPServer.Response(status: 404)
            }
        }
        defer { Task { await server.stop() } }

        let crawl = try ChildProcess(
            "artpipe",
            ["crawl", "--brokers", cluster.brokers, "--base-url", server.baseURL, "--source", "rijksmuseum-search"])
        #expect(try await crawl.waitForExit(timeout: .seconds(60)) == 0, "\(crawl.stderr)")
        #expect(crawl.stdout.contains("published 1 page requests"))

        let http = HTTPFetcher(
            configuration: HTTPFetcherConfiguration(), redaction: SecretRedaction(secrets: []), logger: .test)
        let source = SearchCollectionSource(
            searchBase: URL(string: server.baseURL)!, idBase: URL(string: server.baseURL)!, imageEdge: 512, http: http)
        let worker = try InProcessWorker(
            brokers: cluster.brokers, group: UniqueName.make("fetch"), topics: [ArtpipeTopic.pageRequests],
            handler: PageFetchHandler(sources: [source], redaction: SecretRedaction(secrets: [])))
        let pageMessages = try await readTopic(
            ArtpipeTopic.pages, brokers: cluster.brokers, count: 2, timeout: .seconds(60))
        try await worker.stop()
        try await http.shutdown()

        let pages = try pageMessages.map { try MessageCodec.decode(Page.self, from: $0) }.sorted { $0.page < $1.page }
        #expect(pages.map(\.page) == [1, 2])
        #expect(pages.flatMap(\.artworks).map(\.objectNumber) == ["OBJ-1", "OBJ-2", "OBJ-3"])
        #expect(pages.flatMap(\.artworks).map(\.title) == ["Title 1", "Title 2", "Title 3"])
        #expect(pages.allSatisfy { $0.total == 3 && $0.source == "rijksmuseum-search" })
        #expect(Set(pages.map(\.pageId)).count == 2)
        await cluster.shutdown()
    }
}
