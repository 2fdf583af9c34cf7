import ArtpipeRuntime
import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import HTTPFetching
import KafkaClient
import PipelineContract
import Testing

@testable import FetchWorker

/// Harvests from an independent OAI-PMH server: oai-repo (PyPI), the library the museum's
/// endpoint is very likely built on, run by `Tests/Servers/oai_repo_server.py`. It lists in
/// identifier order, 50 records a page, and refuses a token once its list shrank.
@Suite("Harvests against oai-repo", .serialized, .timeLimit(.minutes(2)))
struct OAIRepoTests {
    typealias Server = OAIRepoServer

    static func fetcher(_ server: Server) -> HTTPFetcher {
        var configuration = HTTPFetcherConfiguration()
        configuration.maxAttempts = 1
        return HTTPFetcher(
            configuration: configuration, redaction: SecretRedaction(secrets: []), logger: .test,
            policy: .sources(baseURL: URL(string: server.baseURL)))
    }

    /// `body` with a fetcher for `server` and an any-repository source on it; the fetcher is
    /// shut down however `body` ends (one left running traps when it goes).
    static func withSource<T>(
        _ server: Server, sliceRecords: Int = OAICollectionSource.defaultSliceRecords,
        _ body: (OAICollectionSource, HTTPFetcher) async throws -> T
    ) async throws -> T {
        let http = fetcher(server)
        let source = OAICollectionSource(
            repository: .any, language: "en", imageEdge: 512, sliceRecords: sliceRecords, http: http, logger: .test)
        do {
            let result = try await body(source, http)
            try await http.shutdown()
            return result
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    /// Plans as `crawl` does and follows the cursor as FetchWorker does; `between` runs after each page.
    static func harvest(
        _ source: OAICollectionSource, query: [String: String] = [:],
        between: (Int, SourcePage) async throws -> Void = { _, _ in }
    ) async throws -> [SourcePage] {
        let plan = try await CrawlPlanner.plan(source: source, query: query, pages: .all, pageSize: 50, crawlId: "t")
        var request = try #require(plan.requests.first)
        var pages: [SourcePage] = []
        while true {
            let page = try await source.fetch(request)
            pages.append(page)
            try await between(pages.count, page)
            guard let next = page.next.first, pages.count < 200 else { return pages }
            request = next
        }
    }

    @Test("records deleted mid-harvest: oai-repo refuses the token, and every record left is listed")
    func deletedMidHarvest() async throws {
        let server = try await OAIRepoTests.Server(records: 600)
        defer { server.stop() }
        let http = Self.fetcher(server)
        let source = OAICollectionSource(
            endpoint: URL(string: server.baseURL + "/oai")!, language: "en", imageEdge: 512, http: http, logger: .test)
        var deleted: [String] = []
        let pages = try await Self.harvest(source) { count, _ in
            if count == 4 { deleted = try await server.control("/control/delete?count=5", http: http) }
        }
        try await http.shutdown()
        #expect(deleted.count == 5)
        let listed = Set(pages.flatMap(\.artworks).compactMap(\.recordId))
        let all = (0..<600).map { "https://id.rijksmuseum.nl/\(200_000_000 + $0)" }
        #expect(
            listed == Set(all).subtracting(deleted),
            "\(Set(all).subtracting(deleted).subtracting(listed).count) never listed")
        // Four pages, the refused fifth listed from the start again: 4 + 12 pages.
        #expect(pages.count == 4 + 12, "\(pages.count) pages")
        #expect(pages.last?.completedHarvest != nil)
    }

    @Test(
        "a harvest in slices: a record edited in the slice being listed refuses its token; only that slice is listed again"
    )
    func editedMidSlice() async throws {
        let server = try await OAIRepoTests.Server(records: 600)
        defer { server.stop() }
        let http = Self.fetcher(server)
        let source = OAICollectionSource(
            endpoint: URL(string: server.baseURL + "/oai")!, language: "en", imageEdge: 512, sliceRecords: 100,
            http: http, logger: .test)
        var edited: [String] = []
        let pages = try await Self.harvest(source) { count, page in
            // The first page of the third slice or later that goes on to a second page.
            guard edited.isEmpty, count >= 5, let first = page.artworks.first?.recordId, !page.next.isEmpty,
                page.next[0].cursor?.contains("token=") == true
            else { return }
            edited = try await server.control("/control/restamp?ids=\(first)", http: http)
        }
        try await http.shutdown()
        #expect(edited.count == 1)
        let listed = pages.flatMap(\.artworks).compactMap(\.recordId)
        let all = (0..<600).map { "https://id.rijksmuseum.nl/\(200_000_000 + $0)" }
        #expect(Set(listed) == Set(all), "\(Set(all).subtracting(listed).count) never listed")
        // Slices of at most 100 records are two pages of 50; the refusal lists one page again:
        // the edited record once more in the last slice, and the slice's first page again.
        #expect(listed.count - 600 > 1 && listed.count - 600 <= 100, "\(listed.count - 600) records listed twice")
        let mark = try #require(pages.last?.completedHarvest)
        #expect(mark.harvestedThrough <= OAIDatestamp.text(Date()))
    }

    @Test("any repository: the format chosen from its offer, each record read, an unreadable one its own")
    func anyRepository() async throws {
        let server = try await OAIRepoTests.Server(
            records: 120, arguments: ["--formats", "oai_dc,lido", "--unreadable-every", "25"])
        defer { server.stop() }
        var configuration = HTTPFetcherConfiguration()
        configuration.maxAttempts = 1
        let http = HTTPFetcher(
            configuration: configuration, redaction: SecretRedaction(secrets: []), logger: .test,
            policy: .anyPublicHost(trusting: URL(string: server.baseURL)))
        let source = OAICollectionSource(repository: .any, language: "en", imageEdge: 512, http: http, logger: .test)
        let endpoint = server.baseURL + "/oai"
        let lido = try await Self.harvest(source, query: ["endpoint": endpoint])
        let dublinCore = try await Self.harvest(source, query: ["endpoint": endpoint, "metadataPrefix": "oai_dc"])
        await #expect(throws: SourceFormatError.self) {
            _ = try await Self.harvest(source, query: ["endpoint": endpoint, "metadataPrefix": "marc21"])
        }
        try await http.shutdown()
        #expect(lido.dropFirst().allSatisfy { $0.next.isEmpty || $0.next[0].cursor?.contains("format=lido") == true })
        for (pages, maker) in [(lido, "Maker "), (dublinCore, "Maker, ")] {
            let works = pages.flatMap(\.artworks)
            // SK-A-0, -25, -50, -75 and -100 are in a format no reader takes: five records, not five pages.
            #expect(pages.flatMap(\.unreadable).count == 5)
            #expect(Set(works.compactMap(\.recordId)).count == 115)
            for work in works {
                #expect(work.title == "Work \(work.objectNumber)")
                #expect(work.artist == maker + String(work.objectNumber.last!))
                #expect(work.imageURL?.hasPrefix("https://iiif.micr.io/\(work.objectNumber)/full/") == true)
                #expect(work.imageURL?.contains("/full/100,/") == false, "the full image, not the thumbnail")
            }
        }
        await #expect(throws: SourceFormatError.self) { _ = try await source.count(query: ["set": "all"]) }
        await #expect(throws: SourceFormatError.self) {
            _ = try await source.count(query: ["endpoint": "ftp://example.org/oai"])
        }
    }

    @Test("each unreadable record is a dead letter of its own, keyed by its page; the page goes on")
    func unreadableRecordsAreDeadLetters() async throws {
        let server = try await OAIRepoTests.Server(
            records: 50, arguments: ["--formats", "lido", "--unreadable-every", "7"])
        defer { server.stop() }
        let http = Self.fetcher(server)
        let source = OAICollectionSource(repository: .any, language: "en", imageEdge: 512, http: http, logger: .test)
        let handler = PageFetchHandler(sources: [source], redaction: SecretRedaction(secrets: []), chains: nil)
        let plan = try await CrawlPlanner.plan(
            source: source, query: ["endpoint": server.baseURL + "/oai"], pages: .all, pageSize: 50, crawlId: "t")
        let request = try #require(plan.requests.first)
        let message = KafkaConsumerMessage(
            topic: ArtpipeTopic.pageRequests, partition: 3, offset: 17, key: Array(request.pageId.utf8),
            value: try MessageCodec.record(request, topic: ArtpipeTopic.pageRequests).value)
        let outputs = try await handler.handle(
            request, context: MessageContext(message: message, attempt: 1, logger: .test))
        try await http.shutdown()
        let letters = outputs.filter { $0.topic == ArtpipeTopic.deadLetters }
        let page = try #require(outputs.first { $0.topic == ArtpipeTopic.pages })
        // SK-A-0, -7, -14, … -49: eight records in a format no reader takes.
        #expect(letters.count == 8)
        #expect(letters.allSatisfy { $0.key == Array(request.pageId.utf8) })
        let header = { (record: KafkaProducerRecord, name: String) in
            record.headers.first { $0.name == name }?.value.map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(
            letters.allSatisfy {
                header($0, DeadLetter.recordIdHeader)?.hasPrefix("https://id.rijksmuseum.nl/") == true
            })
        #expect(letters.allSatisfy { header($0, DeadLetter.errorHeader)?.contains("does not read") == true })
        #expect(letters.allSatisfy { header($0, DeadLetter.sourceOffsetHeader) == "17" })
        let decoded = try MessageCodec.decode(
            Page.self,
            from: KafkaConsumerMessage(topic: page.topic, partition: 0, offset: 0, key: page.key, value: page.value))
        #expect(decoded.artworks.count == 42)
        #expect(decoded.unreadable?.count == 8)
    }

    @Test("a repository that selects by day: windows in days, overlapping by one; an edit after the mark is listed")
    func dayGranularity() async throws {
        let server = try await OAIRepoTests.Server(
            records: 120, arguments: ["--formats", "oai_dc", "--granularity", "day"])
        defer { server.stop() }
        let endpoint = server.endpoint
        let harvests = try await Self.withSource(server, sliceRecords: 50) { source, http in
            let full = try await Self.harvest(source, query: ["endpoint": endpoint])
            let mark = try #require(full.last?.completedHarvest)
            let edited = try await server.control(
                "/control/restamp?ids=https://id.rijksmuseum.nl/200000005,https://id.rijksmuseum.nl/200000077",
                http: http)
            // As `crawl --since last` asks: from the mark, a second the server cannot take as such.
            let since = try await Self.harvest(source, query: ["endpoint": endpoint, "from": mark.harvestedThrough])
            return (full, edited, since)
        }
        let (full, edited, since) = harvests
        #expect(Set(full.flatMap(\.artworks).compactMap(\.recordId)).count == 120)
        #expect(
            full.flatMap(\.artworks).allSatisfy { $0.datestamp?.count == 10 }, "day datestamps, as the server stamps")
        #expect(edited.count == 2)
        #expect(Set(since.flatMap(\.artworks).compactMap(\.recordId)) == Set(edited))
        #expect(since.last?.completedHarvest != nil)
    }
}

extension OAIRepoTests {
    @Test("the identifiers listed whole, over every token; after records go, they are not listed")
    func listIdentifiers() async throws {
        let server = try await OAIRepoTests.Server(records: 120, arguments: ["--formats", "oai_dc"])
        defer { server.stop() }
        let listings = try await Self.withSource(server) { source, http in
            let before = try await source.listIdentifiers(query: ["endpoint": server.endpoint])
            let deleted = try await server.control("/control/delete?count=7", http: http)
            return (before, deleted, try await source.listIdentifiers(query: ["endpoint": server.endpoint]))
        }
        let (before, deleted, after) = listings
        #expect(before.present.count == 120, "120 records over three pages of 50")
        #expect(after.present == before.present.subtracting(deleted) && deleted.count == 7)
        #expect(after.responseDate.count == 20)
    }
}

/// Harvests from a second independent implementation: pyoai (PyPI `oaipmh`), its own tokens,
/// day granularity, deleted records kept.
@Suite("Harvests against pyoai", .serialized, .timeLimit(.minutes(2)))
struct PyOAITests {
    @Test("pyoai: oai_dc chosen, its tokens followed, deletions read as deletions, creators as written")
    func harvest() async throws {
        let server = try await OAIRepoServer(
            records: 90, arguments: ["--deleted-every", "9"], script: "pyoai_server.py")
        defer { server.stop() }
        let pages = try await OAIRepoTests.withSource(server) { source, _ in
            try await OAIRepoTests.harvest(source, query: ["endpoint": server.endpoint])
        }
        // 25 records a page, as the server batches them.
        #expect(pages.count == 4)
        let works = pages.flatMap(\.artworks)
        #expect(works.count == 80)
        #expect(pages.flatMap(\.deletions).count == 10, "records 0, 9, … 81 are deleted")
        for work in works {
            let number = work.objectNumber.dropFirst(2)
            #expect(work.objectNumber == "P-\(number)" && work.title == "Print \(number)")
            #expect(work.artist == "Etcher, \(number.last!)")
            #expect(work.imageURL == "https://images.pyoai.example/P-\(number).jpg")
        }
        #expect(pages.last?.completedHarvest != nil)
    }
}
