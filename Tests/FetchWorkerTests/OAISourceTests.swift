import ArtpipeTestKit
import Foundation
import HTTPFetching
import Logging
import PipelineContract
import SampleCollection
import Testing

@testable import FetchWorker

/// The OAI-PMH source over real HTTP against the sample server's stand-in of the endpoint.
@Suite("OAI-PMH source against the stand-in", .serialized, .timeLimit(.minutes(2)))
struct OAISourceTests {
    static func configuration() -> SampleCollection.Configuration {
        var configuration = SampleCollection.Configuration()
        configuration.seed = 11
        configuration.pages = 5
        return configuration
    }

    /// Follows the cursor from page 1 to the end, as FetchWorker does; returns every page.
    static func harvest(_ source: OAICollectionSource, query: [String: String] = [:]) async throws -> [SourcePage] {
        var request = PageRequest(crawlId: "t", source: source.name, query: query, page: 1, pageSize: 100)
        var pages: [SourcePage] = []
        while true {
            let page = try await source.fetch(request)
            pages.append(page)
            guard let next = page.next.first, pages.count < 50 else { return pages }
            request = next
        }
    }

    static func source(_ server: SampleServerHandle, language: String = "en") -> (OAICollectionSource, HTTPFetcher) {
        var configuration = HTTPFetcherConfiguration()
        configuration.maxAttempts = 1
        let http = HTTPFetcher(configuration: configuration, redaction: SecretRedaction(secrets: []), logger: .test)
        let source = OAICollectionSource(
            endpoint: URL(string: server.baseURL + "/oai")!, language: language, imageEdge: 512, http: http,
            logger: .test)
        return (source, http)
    }

    @Test("a full harvest pages through resumption tokens and lists every work once, as versioned records")
    func fullHarvest() async throws {
        let server = try await SampleServerHandle.start(Self.configuration())
        let (source, http) = Self.source(server)
        let pages = try await Self.harvest(source)
        try await http.shutdown()
        await server.stop()
        let works = server.collection.works
        #expect(pages.count == (works.count + 199) / 200)
        let artworks = pages.flatMap(\.artworks)
        #expect(artworks.map(\.objectNumber) == works.map(\.objectNumber))
        #expect(artworks.map(\.title) == works.map(\.title))
        #expect(artworks.map(\.artist) == works.map(\.maker))
        #expect(artworks.allSatisfy { $0.recordId != nil && $0.datestamp != nil })
        #expect(artworks.filter { $0.imageURL != nil }.count == works.filter { $0.image != nil }.count)
        #expect(artworks.compactMap(\.imageURL).allSatisfy { $0.contains("/full/!512,512/0/default.jpg") })
        #expect(pages.allSatisfy { $0.total == works.count && $0.unreadable.isEmpty })
    }

    @Test("an expired resumption token resumes from the last datestamp reached and still lists every work")
    func expiredTokens() async throws {
        var faults = SampleServerFaults()
        faults.oaiTokenLifetime = .zero
        let server = try await SampleServerHandle.start(Self.configuration(), faults: faults)
        let (source, http) = Self.source(server)
        let pages = try await Self.harvest(source)
        try await http.shutdown()
        await server.stop()
        let listed = Set(pages.flatMap(\.artworks).map(\.objectNumber))
        #expect(listed == Set(server.collection.works.map(\.objectNumber)))
        #expect(pages.count > 1)
    }

    @Test("from and until select by datestamp; no records is an empty harvest, not a failure")
    func selective() async throws {
        let server = try await SampleServerHandle.start(Self.configuration())
        let (source, http) = Self.source(server)
        let all = try await Self.harvest(source).flatMap(\.artworks)
        let cut = try #require(all.dropFirst(250).first?.datestamp)
        let later = try await Self.harvest(source, query: ["from": cut]).flatMap(\.artworks)
        #expect(later.map(\.objectNumber) == all.dropFirst(250).map(\.objectNumber))
        let none = try await Self.harvest(source, query: ["from": "2099-01-01T00:00:00Z"])
        #expect(none.count == 1 && none[0].artworks.isEmpty && none[0].next.isEmpty)
        await #expect(throws: SourceFormatError.self) {
            _ = try await source.count(query: ["q": "Vermeer"])
        }
        try await http.shutdown()
        await server.stop()
    }
}

@Suite("OAI-PMH errors by name")
struct OAIErrorTests {
    @Test("an OAI error other than an expired token is the request's fault: permanent, with the code in the reason")
    func permanentErrors() async throws {
        let server = try await TestHTTPServer.start { _ in
            TestHTTPServer.Response(
                headers: [("Content-Type", "text/xml")],
                body: Array(
                    """
                    <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-11-20T10:00:00Z</responseDate>
                    <error code="badArgument">from is not a valid datestamp</error></OAI-PMH>
                    """.utf8))
        }
        let http = HTTPFetcher(
            configuration: HTTPFetcherConfiguration(), redaction: SecretRedaction(secrets: []), logger: .test)
        let source = OAICollectionSource(
            endpoint: URL(string: server.baseURL + "/oai")!, language: "en", imageEdge: 512, http: http, logger: .test)
        let request = PageRequest(
            crawlId: "c", source: source.name, query: ["from": "yesterday"], page: 1, pageSize: 200)
        let error = await #expect(throws: SourceFormatError.self) { try await source.fetch(request) }
        #expect(error?.description.contains("badArgument") == true)
        try await http.shutdown()
        await server.stop()
    }
}
