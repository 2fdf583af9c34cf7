import ArtpipeRuntime
import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import HTTPTestKit
import KafkaClient
import KafkaTestKit
import PipelineContract
import Synchronization
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
            searchBase: URL(string: server.baseURL)!, dataBase: URL(string: server.baseURL)!, imageEdge: 512, http: http
        )
        // The recorded object shows visual item 2021; the recorded visual item is another object's, served in its place.
        let artwork = try await source.artwork(id: "https://id.rijksmuseum.nl/2001", position: 4)
        #expect(artwork.objectNumber == "RP-P-2010-222-3315")
        #expect(artwork.title == "Before, Behind, Between, Above, Below")
        #expect(artwork.artist == "Nicolaas Wijnberg")
        #expect(artwork.imageURL == "https://iiif.micr.io/AbCdE/full/!512,512/0/default.jpg")
        #expect(artwork.position == 4)
        #expect(server.requests.allSatisfy { $0.headers["accept"] == "application/ld+json" })
        // The production's time span, the web page the object is the subject of, the visual item's
        // rights (the object states none of its own), the IIIF service of the image; no manifest.
        #expect(artwork.date == "1973")
        #expect(artwork.years == YearRange(earliest: 1973, latest: 1973))
        let page = "https://www.rijksmuseum.nl/nl/collectie/object/RP-P-2010-222-3315--ba97e0d4396e589a312631ff4fbfd5fb"
        #expect(artwork.landingPage == page)
        #expect(artwork.rights == "https://creativecommons.org/publicdomain/mark/1.0/")
        #expect(artwork.iiifImageService == "https://iiif.micr.io/AbCdE")
        #expect(artwork.iiifManifest == nil)

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
            searchBase: URL(string: server.baseURL)!, dataBase: URL(string: server.baseURL)!, imageEdge: 512, http: http
        )
        let worker = try InProcessWorker(
            brokers: cluster.brokers, group: UniqueName.make("fetch"), topics: [ArtpipeTopic.pageRequests],
            handler: PageFetchHandler(
                sources: [source], redaction: SecretRedaction(secrets: []), chains: .reading(cluster)))
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

@Suite("Search API as the real service behaves", .serialized, .timeLimit(.minutes(2)))
struct SearchSourceBehaviourTests {
    static func source(_ server: TestHTTPServer, attempts: Int = 5) -> (SearchCollectionSource, HTTPFetcher) {
        var configuration = HTTPFetcherConfiguration()
        configuration.maxAttempts = attempts
        configuration.initialBackoff = .milliseconds(10)
        configuration.maxBackoff = .milliseconds(20)
        let http = HTTPFetcher(configuration: configuration, redaction: SecretRedaction(secrets: []), logger: .test)
        let base = URL(string: server.baseURL)!
        return (SearchCollectionSource(searchBase: base, dataBase: base, imageEdge: 512, http: http), http)
    }

    static func object(_ number: Int, title: String = "", production: String? = nil) -> String {
        """
        {"id": "https://id.rijksmuseum.nl/\(number)", "type": "HumanMadeObject", "identified_by": [
          {"type": "Identifier", "content": "OBJ-\(number)", "classified_as": ["http://vocab.getty.edu/aat/300312355"]},
          {"type": "Name", "content": \(title.isEmpty ? "[\"\", \"Title \(number)\"]" : "\"\(title)\"")}]
          \(production.map { ", \"produced_by\": \($0)" } ?? "")}
        """
    }

    @Test(
        "the recorded two-part production: the primary part's maker, not the publisher; ids fetched from the data host as Linked Art"
    )
    func recordedParts() async throws {
        let poster = try RecordedFixture.bytes("arrt_record_sluijters_poster_two_parts_TRIMMED")
        let samson = try RecordedFixture.bytes("arrt_record_samson_attributed_TRIMMED")
        let server = try await TestHTTPServer.start { request in
            switch request.path {
            case "/200656394": TestHTTPServer.Response(body: poster)
            case "/200109435": TestHTTPServer.Response(body: samson)
            case "/21029231": .json(#"{"type": "Person", "_label": "Jan Sluijters"}"#)
            case "/2103429": .json(#"{"type": "Person", "_label": "Rembrandt van Rijn"}"#)
            case "/21038856": .json(#"{"type": "Group", "_label": "Scheltens & Giltay"}"#)
            case "/202656394", "/202109435": .json(#"{"type": "VisualItem"}"#)
            default: TestHTTPServer.Response(status: 404)
            }
        }
        let (source, http) = Self.source(server)
        let poster1 = try await source.artwork(id: "https://id.rijksmuseum.nl/200656394", position: 0)
        #expect(poster1.objectNumber == "RP-P-2015-26-2010")
        #expect(poster1.artist == "Jan Sluijters")
        let painting = try await source.artwork(id: "https://id.rijksmuseum.nl/200109435", position: 1)
        #expect(painting.objectNumber == "SK-A-4096")
        #expect(painting.artist == "Rembrandt van Rijn")
        #expect(painting.title == "Samson and Delilah")
        #expect(poster1.date == "1923")
        #expect(poster1.years == YearRange(earliest: 1923, latest: 1923))
        #expect(painting.date == "c. 1626 - c. 1627", "the English name of the time span")
        #expect(painting.years == YearRange(earliest: 1626, latest: 1627))
        // Trimmed records: no texts about them, visual items without rights or images.
        #expect(painting.landingPage == nil && painting.rights == nil && painting.iiifManifest == nil)
        #expect(painting.iiifImageService == nil)
        #expect(!server.requests.contains { $0.path == "/21038856" }, "the publisher is not the maker")
        #expect(
            server.requests.allSatisfy {
                $0.headers["accept"] == "application/ld+json"
                    && $0.headers["accept-profile"] == "<https://linked.art/ns/terms/>"
            })
        try await http.shutdown()
        await server.stop()
    }

    @Test("an object's manifest, web page and own rights statement; odd shapes of what only describes it pass")
    func describingDocuments() async throws {
        let described = """
            {"id": "https://id.rijksmuseum.nl/5", "type": "HumanMadeObject", "identified_by": [
              {"type": "Identifier", "content": "OBJ-5", "classified_as": [{"id": "http://vocab.getty.edu/aat/300312355"}]},
              {"type": "Name", "content": "Still Life"}],
             "produced_by": {"timespan": {"type": "TimeSpan", "identified_by": [{"type": "Name", "content": "1650-1660"}]}},
             "subject_of": [{"type": "LinguisticObject", "digitally_carried_by": [
               {"type": "DigitalObject", "conforms_to": [{"id": "http://iiif.io/api/presentation"}],
                "access_point": [{"id": "https://iiif.example.org/manifest/5"}]},
               {"type": "DigitalObject", "format": "text/html",
                "access_point": [{"id": "https://www.rijksmuseum.nl/en/collection/OBJ-5"}]}]}],
             "referred_to_by": [
               {"type": "LinguisticObject", "content": "signed", "classified_as": [{"id": "http://vocab.getty.edu/aat/300435416"}]},
               {"type": "LinguisticObject", "content": "© the maker's heirs", "classified_as": [{"id": "http://vocab.getty.edu/aat/300435434"}]}],
             "shows": [{"id": "https://id.rijksmuseum.nl/205", "type": "VisualItem"}]}
            """
        let odd = """
            {"id": "https://id.rijksmuseum.nl/6", "type": "HumanMadeObject", "identified_by": [
              {"type": "Identifier", "content": "OBJ-6", "classified_as": [{"id": "http://vocab.getty.edu/aat/300312355"}]}],
             "produced_by": {"timespan": "1650"}, "subject_of": "a page", "referred_to_by": {"content": 7},
             "subject_to": [{"type": "Right", "classified_as": [{"id": "https://rightsstatements.org/vocab/InC/1.0/"}]}]}
            """
        let server = try await TestHTTPServer.start { request in
            switch request.path {
            case "/5": .json(described)
            case "/6": .json(odd)
            case "/205":
                .json(
                    #"{"type": "VisualItem", "subject_to": [{"type": "Right", "classified_as": [{"id": "https://creativecommons.org/publicdomain/mark/1.0/"}]}]}"#
                )
            default: TestHTTPServer.Response(status: 404)
            }
        }
        let (source, http) = Self.source(server)
        let five = try await source.artwork(id: "https://id.rijksmuseum.nl/5", position: 0)
        #expect(five.iiifManifest == "https://iiif.example.org/manifest/5")
        #expect(five.landingPage == "https://www.rijksmuseum.nl/en/collection/OBJ-5")
        #expect(five.rights == "© the maker's heirs", "the object's own statement before its image's rights")
        #expect(five.date == "1650-1660")
        #expect(five.years == YearRange(earliest: 1650, latest: 1660), "no begin or end: read from the name")
        #expect(five.imageURL == nil && five.iiifImageService == nil)
        let six = try await source.artwork(id: "https://id.rijksmuseum.nl/6", position: 1)
        #expect(six.objectNumber == "OBJ-6")
        #expect(six.rights == "https://rightsstatements.org/vocab/InC/1.0/")
        #expect(six.date == nil && six.years == nil && six.landingPage == nil && six.iiifManifest == nil)
        try await http.shutdown()
        await server.stop()
    }

    @Test(
        "the IIIF image service is an image request's URL without region, size, rotation and quality",
        arguments: [
            ("https://iiif.micr.io/AbCdE/full/max/0/default.jpg", "https://iiif.micr.io/AbCdE"),
            ("https://iiif.micr.io/AbCdE/full/!512,512/0/default.jpg", "https://iiif.micr.io/AbCdE"),
            ("http://127.0.0.1:8090/iiif/7/full/512,/0/default.jpg", "http://127.0.0.1:8090/iiif/7"),
            (
                "https://images.example.org/iiif/2/abc%2F1/0,0,100,200/pct:50/!90/gray.png",
                "https://images.example.org/iiif/2/abc%2F1"
            ),
        ])
    func imageService(url: String, service: String) {
        #expect(IIIFImageRequest.service(of: url) == service)
    }

    @Test(
        "a URL that is no IIIF image request has no service",
        arguments: [
            "https://example.org/image.jpg", "https://iiif.micr.io/full/max/0/default.jpg",
            "https://iiif.micr.io/AbCdE/full/max/0/default.jpg?download=1", "https://iiif.micr.io/AbCdE/info.json",
            "ftp://iiif.micr.io/AbCdE/full/max/0/default.jpg", "https://iiif.micr.io/AbCdE/full/max/0/fancy.jpg",
            "https://iiif.micr.io/AbCdE/middle/max/0/default.jpg", "not a url",
        ])
    func noImageService(url: String) {
        #expect(IIIFImageRequest.service(of: url) == nil)
    }

    @Test("a name given in place is used without fetching the agent; content as an array; no maker is anonymous")
    func lenientDocuments() async throws {
        let inline = """
            {"part": [{"classified_as": [{"id": "http://vocab.getty.edu/aat/300404450"}],
              "carried_out_by": [{"id": "https://id.rijksmuseum.nl/77", "type": "Person",
                "identified_by": [{"type": "Name", "content": ["Maria Sibylla Merian"]}]}]}]}
            """
        let server = try await TestHTTPServer.start { request in
            switch request.path {
            case "/1": .json(Self.object(1, production: inline))
            case "/2": .json(Self.object(2))
            default: TestHTTPServer.Response(status: 404)
            }
        }
        let (source, http) = Self.source(server)
        let first = try await source.artwork(id: "https://id.rijksmuseum.nl/1", position: 0)
        #expect(first.artist == "Maria Sibylla Merian")
        #expect(first.title == "Title 1")
        let second = try await source.artwork(id: "https://id.rijksmuseum.nl/2", position: 1)
        #expect(second.artist == SearchCollectionSource.unknownMaker)
        #expect(!server.requests.contains { $0.path == "/77" })
        try await http.shutdown()
        await server.stop()
    }

    @Test(
        "one object answering 404 is left out with its reason; one failing for the moment has the page retried, its next page known"
    )
    func objectFailures() async throws {
        let failing = Mutex(true)
        let server = try await TestHTTPServer.start { request in
            switch (request.path, request.query["pageToken"]) {
            case ("/search/collection", nil):
                return .json(
                    """
                    {"type": "OrderedCollectionPage", "partOf": {"totalItems": 9}, "orderedItems": [
                      {"id": "https://id.rijksmuseum.nl/1"}, {"id": "https://id.rijksmuseum.nl/2"}, {"id": "https://id.rijksmuseum.nl/3"},
                      {"id": "http://127.0.0.1:9/elsewhere"}, {"id": "https://id.rijksmuseum.nl/4"}],
                     "next": {"id": "https://data.rijksmuseum.nl/search/collection?pageToken=B"}}
                    """)
            case ("/search/collection", "B"?):
                // A server that sends the crawl back where it was.
                return .json(
                    """
                    {"type": "OrderedCollectionPage", "orderedItems": [],
                     "next": {"id": "https://data.rijksmuseum.nl/search/collection?pageToken=B"}}
                    """)
            case ("/2", _): return TestHTTPServer.Response(status: 404)
            case ("/4", _):
                // A redirect away from the museum's hosts is not followed.
                return TestHTTPServer.Response(status: 302, headers: [("Location", "http://169.254.169.254/latest")])
            case ("/3", _) where failing.withLock({ $0 }): return TestHTTPServer.Response(status: 503)
            case (let path, _): return .json(Self.object(Int(path.dropFirst()) ?? 0, title: "T"))
            }
        }
        let (source, http) = Self.source(server, attempts: 2)
        let request = PageRequest(crawlId: "c", source: source.name, query: [:], page: 1, pageSize: 100)
        let troubled = try await source.fetch(request)
        #expect(troubled.retryLater?.reason.contains("HTTP 503") == true)
        #expect(troubled.next.map(\.page) == [2])
        failing.withLock { $0 = false }
        let page = try await source.fetch(request)
        #expect(page.retryLater == nil)
        #expect(page.artworks.map(\.objectNumber) == ["OBJ-1", "OBJ-3"])
        #expect(page.artworks.map(\.position) == [0, 2])
        #expect(
            page.unreadable.map(\.recordId) == [
                "https://id.rijksmuseum.nl/2", "http://127.0.0.1:9/elsewhere", "https://id.rijksmuseum.nl/4",
            ])
        #expect(page.unreadable.first?.reason.contains("HTTP 404") == true)
        #expect(page.unreadable[1].reason.contains("is not an id of the museum"), "\(page.unreadable[1].reason)")
        #expect(
            page.unreadable[2].reason.contains("not a museum host: 169.254.169.254"), "\(page.unreadable[2].reason)")
        #expect(!server.requests.contains { $0.path == "/elsewhere" })

        let second = try await source.fetch(try #require(page.next.first))
        #expect(second.next.isEmpty && second.repeatedCursor, "a cursor that repeats ends the crawl")
        try await http.shutdown()
        await server.stop()
    }

    @Test("crawl refuses an unknown parameter with the list of known ones, and --page-size, before any request")
    func crawlRefusals() async throws {
        let unknown = try ChildProcess(
            "artpipe",
            [
                "crawl", "--brokers", "127.0.0.1:1", "--source", "rijksmuseum-search", "--base-url",
                "http://127.0.0.1:1",
                "--query", "q=vermeer",
            ])
        #expect(try await unknown.waitForExit(timeout: .seconds(30)) == 2)
        #expect(
            unknown.stderr.contains("does not take q; its parameters are aboutActor, creationDate, creator"),
            "\(unknown.stderr)")
        let sized = try ChildProcess(
            "artpipe",
            [
                "crawl", "--brokers", "127.0.0.1:1", "--source", "rijksmuseum-search", "--base-url",
                "http://127.0.0.1:1",
                "--page-size", "50",
            ])
        #expect(try await sized.waitForExit(timeout: .seconds(30)) == 2)
        #expect(sized.stderr.contains("--page-size: rijksmuseum-search pages hold 100 objects"), "\(sized.stderr)")
    }

    @Test("FetchWorker publishes the next page at once while a page waits for a retry, and only once")
    func nextPageOnce() async throws {
        let cluster = try TestCluster()
        for topic in ArtpipeTopic.all { try cluster.broker.createTopic(topic, partitions: 1) }
        let failures = Mutex(2)
        let server = try await TestHTTPServer.start { request in
            switch (request.path, request.query["pageToken"]) {
            case ("/search/collection", nil):
                return .json(
                    """
                    {"type": "OrderedCollectionPage", "orderedItems": [{"id": "https://id.rijksmuseum.nl/1"}],
                     "next": {"id": "https://data.rijksmuseum.nl/search/collection?pageToken=B"}}
                    """)
            case ("/search/collection", "B"?):
                return .json(
                    #"{"type": "OrderedCollectionPage", "orderedItems": [{"id": "https://id.rijksmuseum.nl/2"}]}"#)
            case ("/1", _)
            where failures.withLock({ count in
                count -= 1
                return count >= 0
            }):
                return TestHTTPServer.Response(status: 503)
            case (let path, _):
                return .json(Self.object(Int(path.dropFirst()) ?? 0, title: "T"))
            }
        }
        let (source, http) = Self.source(server, attempts: 1)
        let worker = try InProcessWorker(
            brokers: cluster.brokers, group: UniqueName.make("fetch"), topics: [ArtpipeTopic.pageRequests],
            handler: PageFetchHandler(
                sources: [source], redaction: SecretRedaction(secrets: []), chains: .reading(cluster)),
            retrySchedule: RetrySchedule(
                topics: ArtpipeTopic.pageRequestRetries,
                delays: [.milliseconds(200), .milliseconds(200), .milliseconds(200)]))
        try await cluster.producer.send([
            try MessageCodec.record(
                PageRequest(crawlId: "c", source: source.name, query: [:], page: 1, pageSize: 100),
                topic: ArtpipeTopic.pageRequests)
        ])
        let pages = try await readTopic(ArtpipeTopic.pages, brokers: cluster.brokers, count: 2, timeout: .seconds(60))
        try await worker.stop()
        try await http.shutdown()
        await server.stop()

        let decoded = try pages.map { try MessageCodec.decode(Page.self, from: $0) }
        #expect(Set(decoded.map(\.page)) == [1, 2])
        // Page 2 came first: its request went out with page 1's first failure.
        #expect(decoded.first?.page == 2)
        let requests = try await KafkaTopicSnapshot.read(
            ArtpipeTopic.pageRequests, configuration: KafkaClientConfiguration(brokers: cluster.brokers),
            timeout: .seconds(30), logger: .test)
        #expect(requests.count == 2, "the first request and page 2's, once")
        let copies = try await KafkaTopicSnapshot.read(
            ArtpipeTopic.pageRequestRetries[1], configuration: KafkaClientConfiguration(brokers: cluster.brokers),
            timeout: .seconds(30), logger: .test)
        #expect(copies.first?.headers.value(of: PageFetchHandler.nextPublishedHeader) == "true")
        await cluster.shutdown()
    }
}
