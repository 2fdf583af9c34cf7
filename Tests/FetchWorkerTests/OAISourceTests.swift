import ArtpipeTestKit
import Foundation
import HTTPFetching
import HTTPTestKit
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
        // About 1,000 works: five OAI-PMH pages of 200.
        configuration.pages = 10
        return configuration
    }

    /// Plans the crawl as `crawl` does, then follows the cursor from page 1 to the end, as
    /// FetchWorker does; returns every page.
    static func harvest(_ source: OAICollectionSource, query: [String: String] = [:]) async throws -> [SourcePage] {
        let plan = try await CrawlPlanner.plan(source: source, query: query, pages: .all, pageSize: 200, crawlId: "t")
        var request = try #require(plan.requests.first)
        var pages: [SourcePage] = []
        while true {
            let page = try await source.fetch(request)
            pages.append(page)
            guard let next = page.next.first, pages.count < 50 else { return pages }
            request = next
        }
    }

    static func source(_ server: SampleServerHandle, language: String = "en", sliceRecords: Int = 10_000)
        -> (OAICollectionSource, HTTPFetcher)
    {
        var configuration = HTTPFetcherConfiguration()
        configuration.maxAttempts = 1
        let http = HTTPFetcher(configuration: configuration, redaction: SecretRedaction(secrets: []), logger: .test)
        let source = OAICollectionSource(
            endpoint: URL(string: server.baseURL + "/oai")!, language: language, imageEdge: 512,
            sliceRecords: sliceRecords, http: http, logger: .test)
        return (source, http)
    }

    /// Object numbers listed, each once: what a harvest must hold whatever order the server lists in.
    static func expectEveryWorkOnce(_ pages: [SourcePage], _ server: SampleServerHandle) {
        let listed = pages.flatMap(\.artworks).map(\.objectNumber)
        let works = server.collection.works.map(\.objectNumber)
        #expect(Set(listed) == Set(works), "\(Set(works).subtracting(listed).count) works never listed")
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
        // In identifier order, as the museum lists: not the works' order, nor by datestamp.
        let artworks = pages.flatMap(\.artworks).sorted { $0.recordId! < $1.recordId! }
        let byIdentifier = works.sorted {
            "https://id.rijksmuseum.nl/sample/\($0.id)" < "https://id.rijksmuseum.nl/sample/\($1.id)"
        }
        #expect(pages.flatMap(\.artworks).map(\.recordId) == artworks.map(\.recordId))
        #expect(artworks.map(\.objectNumber) == byIdentifier.map(\.objectNumber))
        #expect(artworks.map(\.title) == byIdentifier.map(\.title))
        #expect(artworks.map(\.artist) == byIdentifier.map(\.maker))
        #expect(artworks.allSatisfy { $0.recordId != nil && $0.datestamp != nil })
        #expect(artworks.filter { $0.imageURL != nil }.count == works.filter { $0.image != nil }.count)
        #expect(artworks.compactMap(\.imageURL).allSatisfy { $0.contains("/full/!512,512/0/default.jpg") })
        #expect(pages.allSatisfy { $0.total == works.count && $0.unreadable.isEmpty })
    }

    @Test(
        "a refused token lists its slice again from the start: no record is lost, though the server lists by identifier"
    )
    func refusedTokenLosesNothing() async throws {
        var faults = SampleServerFaults()
        faults.oaiRefusedTokenRequests = [3]
        let server = try await SampleServerHandle.start(Self.configuration(), faults: faults)
        let (source, http) = Self.source(server)
        let pages = try await Self.harvest(source)
        try await http.shutdown()
        await server.stop()
        Self.expectEveryWorkOnce(pages, server)
        let full = (server.collection.works.count + 199) / 200
        // Pages 1–3 listed, the 4th request's token refused: the list from its start again.
        #expect(pages.count == full + 3)
        #expect(pages.last?.completedHarvest != nil, "the harvest completes")
    }

    @Test("a harvest planned in slices: a refusal lists one slice again, not the harvest; every slice is listed once")
    func slicedHarvest() async throws {
        var faults = SampleServerFaults()
        // 1,000 works in slices of at most 250: 4 or more slices of 1–2 pages, the 2nd page of
        // the harvest refused once.
        faults.oaiRefusedTokenRequests = [2]
        let server = try await SampleServerHandle.start(Self.configuration(), faults: faults)
        let (source, http) = Self.source(server, sliceRecords: 250)
        let counted = server.server.requestsServed
        let count = try await source.count(query: [:])
        let planning = server.server.requestsServed - counted
        #expect(count.cuts.count >= 3, "\(count.cuts)")
        let before = server.server.requestsServed
        let pages = try await Self.harvest(source)
        let harvestRequests = server.server.requestsServed - before
        try await http.shutdown()
        await server.stop()
        Self.expectEveryWorkOnce(pages, server)
        #expect(pages.allSatisfy { $0.total == server.collection.works.count })
        // Slices of at most 250 records are a page or two each; the refusal lists one slice's first page again.
        #expect(pages.count <= 2 * (count.cuts.count + 1) + 1)
        let listedAgain = pages.flatMap(\.artworks).count - server.collection.works.count
        #expect(listedAgain > 0 && listedAgain <= 250, "only the refused slice is listed again")
        // The plan as `count` made it, then one request a page and one for the refused token.
        #expect(harvestRequests == planning + pages.count + 1, "\(planning) requests to plan, \(pages.count) pages")
    }

    @Test("a window that starts long before its first record: no slice of nothing, so no empty page")
    func noEmptyFirstSlice() async throws {
        let server = try await SampleServerHandle.start(Self.configuration())
        let (source, http) = Self.source(server, sliceRecords: 250)
        let pages = try await Self.harvest(source, query: ["from": "2020-01-01T00:00:00Z"])
        try await http.shutdown()
        await server.stop()
        Self.expectEveryWorkOnce(pages, server)
        #expect(pages.allSatisfy { !$0.artworks.isEmpty }, "\(pages.map(\.artworks.count))")
    }

    @Test("a server whose tokens expire at once: the page fails for the moment after ten refusals, it never loops")
    func tokensThatAlwaysExpire() async throws {
        var faults = SampleServerFaults()
        faults.oaiTokenLifetime = .zero
        let server = try await SampleServerHandle.start(Self.configuration(), faults: faults)
        let (source, http) = Self.source(server)
        let error = await #expect(throws: OAITokensRefusedError.self) { _ = try await Self.harvest(source) }
        #expect(error?.refusals == 11)
        try await http.shutdown()
        await server.stop()
    }

    @Test("the harvest mark is never past the server's clock, whatever until asked for")
    func markNeverInTheFuture() async throws {
        let server = try await SampleServerHandle.start(Self.configuration())
        let (source, http) = Self.source(server)
        let before = OAIDatestamp.text(Date().addingTimeInterval(-1))
        let pages = try await Self.harvest(source, query: ["until": "2999-12-31T23:59:59Z"])
        try await http.shutdown()
        await server.stop()
        let mark = try #require(pages.last?.completedHarvest)
        #expect(mark.harvestedThrough >= before && mark.harvestedThrough <= OAIDatestamp.text(Date()))
    }

    @Test("without completeListSize the total is the count the harvest reached, not the first page's")
    func totalWithoutListSize() async throws {
        var faults = SampleServerFaults()
        faults.oaiListSizeHidden = true
        let server = try await SampleServerHandle.start(Self.configuration(), faults: faults)
        let (source, http) = Self.source(server)
        let pages = try await Self.harvest(source)
        try await http.shutdown()
        await server.stop()
        let works = server.collection.works.count
        #expect(pages.map(\.total) == Array(stride(from: 200, to: works, by: 200)) + [works])
    }

    @Test("from and until select by datestamp; no records is an empty harvest, not a failure")
    func selective() async throws {
        let server = try await SampleServerHandle.start(Self.configuration())
        let (source, http) = Self.source(server)
        let all = try await Self.harvest(source).flatMap(\.artworks)
        let datestamps = all.compactMap(\.datestamp).sorted()
        let cut = datestamps[250]
        let later = try await Self.harvest(source, query: ["from": cut]).flatMap(\.artworks)
        #expect(Set(later.map(\.objectNumber)) == Set(all.filter { $0.datestamp! >= cut }.map(\.objectNumber)))
        #expect(later.count == all.count - 250)
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
