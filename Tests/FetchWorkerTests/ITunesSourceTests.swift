import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import HTTPTestKit
import PipelineContract
import Synchronization
import Testing

@testable import FetchWorker
@testable import HTTPFetching

@Suite("iTunes Search API", .timeLimit(.minutes(2)))
struct ITunesSourceTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        try RecordedFixture.bytes("itunes/\(name)")
    }

    static func source(_ server: TestHTTPServer, configuration: HTTPFetcherConfiguration = .init()) -> (
        ITunesSearchSource, HTTPFetcher
    ) {
        let http = HTTPFetcher(configuration: configuration, redaction: SecretRedaction(secrets: []), logger: .test)
        return (
            ITunesSearchSource(endpoint: URL(string: server.baseURL + "/search")!, imageEdge: 512, http: http), http
        )
    }

    @Test("recorded answers, blank lines and all: ids, titles by entity, artists, artwork at the size asked for")
    func recordedAnswers() throws {
        let albums = try ITunesSearchSource.parse(
            Self.fixture("chrisjf_search_entity-album_term-Mamonas-Assassinas_country-CA_4results"))
        let albumWorks = ITunesSearchSource.artworks(of: albums.results, imageEdge: 512)
        #expect(
            albumWorks.map(\.objectNumber) == [
                "itunes-713573779", "itunes-1489396925", "itunes-1390624308", "itunes-1444618999",
            ])
        #expect(albumWorks.first?.title == "Mamonas Assassinas - Ao Vivo")
        #expect(albumWorks.first?.artist == "Mamonas Assassinas")
        #expect(
            albumWorks.first?.imageURL
                == "https://is5-ssl.mzstatic.com/image/thumb/Music125/v4/f8/23/02/f8230276-dc8e-bc82-a2b1-3335a57675f2/source/512x512bb.jpg"
        )

        // Starts and ends with blank lines, as the service sends it.
        let videosBody = try Self.fixture("yanuarash_search_musicVideo_4results")
        #expect(videosBody.prefix(3) == [10, 10, 10])
        let videos = ITunesSearchSource.artworks(of: try ITunesSearchSource.parse(videosBody).results, imageEdge: 300)
        #expect(videos.map(\.artist) == ["Wallows", "Clairo", "Mura Masa & Clairo", "Deaton Chris Anthony"])
        #expect(videos.first?.title == "Are You Bored Yet? (feat. Clairo)")
        #expect(videos.first?.imageURL?.hasSuffix("USATV1900090.sca1.jpg/300x300bb.jpg") == true)

        let mixed = try ITunesSearchSource.parse(
            Self.fixture("dewski_wsSearch_limit2_media-all_term-Michael-Jackson_2012"))
        let tracks = ITunesSearchSource.artworks(of: mixed.results, imageEdge: 512)
        #expect(tracks.map(\.objectNumber) == ["itunes-273047865", "itunes-273047584"])
        #expect(tracks.map(\.title) == ["Thriller", "Billie Jean"])
        #expect(
            tracks.first?.imageURL
                == "http://a1522.phobos.apple.com/us/r1000/059/Music/ff/ad/55/mzi.hkawbdou.512x512-75.jpg")

        let podcast = ITunesSearchSource.artworks(
            of: try ITunesSearchSource.parse(Self.fixture("dewski_wsSearch_media-podcast_term-Beyondjazz_2012"))
                .results,
            imageEdge: 512)
        #expect(podcast.map(\.artist) == ["Julie Kummer"])
        #expect(podcast.map(\.title) == ["s i s t a k"])
    }

    @Test("a detail of another shape is left out; the result is a work and the page stays readable")
    func detailsOfAnotherShape() throws {
        let body = #"""
            {"resultCount": 1, "results": [{"wrapperType": "track", "kind": "song", "trackId": 1, "artistName": "A",
             "trackName": "T", "trackViewUrl": 5, "collectionViewUrl": "https://music.example/c/1",
             "releaseDate": {"year": 2006}, "copyright": ["p"]}]}
            """#
        let works = ITunesSearchSource.artworks(
            of: try ITunesSearchSource.parse(Array(body.utf8)).results, imageEdge: 512)
        #expect(works.count == 1 && works.first?.title == "T")
        #expect(
            works.first?.landingPage == "https://music.example/c/1", "the collection's page, the track's unreadable")
        #expect(works.first?.date == nil && works.first?.rights == nil)
    }

    @Test("the store page, the release date and its year, the copyright where the answer has one")
    func descriptiveFields() throws {
        let albums = ITunesSearchSource.artworks(
            of: try ITunesSearchSource.parse(
                Self.fixture("chrisjf_search_entity-album_term-Mamonas-Assassinas_country-CA_4results")
            ).results,
            imageEdge: 512)
        let album = try #require(albums.first)
        #expect(album.landingPage == "https://music.apple.com/ca/album/mamonas-assassinas-ao-vivo/713573779?uo=4")
        #expect(album.date == "2006-01-01T08:00:00Z")
        #expect(album.years == YearRange(earliest: 2006, latest: 2006))
        #expect(album.rights == "℗ 2006 EMI Music Brasil Ltda")
        #expect(album.iiifManifest == nil && album.iiifImageService == nil)
        #expect(
            albums.map(\.rights) == [
                "℗ 2006 EMI Music Brasil Ltda", "℗ 2019 EMI Records Brasil Ltda",
                "℗ 2018 Mamonas Assassinas Produções, under exclusive license to Universal Music International",
                "℗ 2017 Universal Music International",
            ])

        let videos = ITunesSearchSource.artworks(
            of: try ITunesSearchSource.parse(Self.fixture("yanuarash_search_musicVideo_4results")).results,
            imageEdge: 512)
        let video = try #require(videos.first)
        #expect(
            video.landingPage == "https://music.apple.com/us/music-video/are-you-bored-yet-feat-clairo/1451289202?uo=4")
        #expect(video.date == "2019-02-01T08:00:00Z")
        #expect(video.years == YearRange(earliest: 2019, latest: 2019))
        #expect(videos.allSatisfy { $0.rights == nil }, "music videos carry no copyright")

        let mixed = ITunesSearchSource.artworks(
            of: try ITunesSearchSource.parse(
                Self.fixture("dewski_wsSearch_limit2_media-all_term-Michael-Jackson_2012")
            ).results,
            imageEdge: 512)
        #expect(
            mixed.map(\.landingPage) == [
                "https://itunes.apple.com/us/music-video/thriller/id273047865?uo=4",
                "https://itunes.apple.com/us/music-video/billie-jean/id273047584?uo=4",
            ])
        #expect(mixed.map(\.date) == ["2008-02-11T08:00:00Z", "2008-02-11T08:00:00Z"])
    }

    @Test("artist results are not works; a result twice on a page counts once")
    func artistsAndRepeats() throws {
        let body = """

            {"resultCount":3,"results":[
             {"wrapperType":"artist","artistType":"Artist","artistName":"Somebody","artistId":1},
             {"wrapperType":"track","kind":"song","trackId":7,"collectionId":70,"artistName":" Somebody ","trackName":"Song"},
             {"wrapperType":"track","kind":"song","trackId":7,"collectionId":70,"artistName":"Somebody","trackName":"Song"}]}

            """
        let works = ITunesSearchSource.artworks(
            of: try ITunesSearchSource.parse(Array(body.utf8)).results, imageEdge: 64)
        #expect(works.map(\.objectNumber) == ["itunes-7"])
        #expect(works.first?.artist == "Somebody")
        #expect(works.first?.imageURL == nil)
        #expect(throws: UnrecognisedAnswerError.self) { try ITunesSearchSource.parse(Array("<html></html>".utf8)) }
        #expect(ITunesSearchSource.sizedArtwork("https://a/b/no-size.jpg", edge: 300) == "https://a/b/no-size.jpg")
    }

    static func result(_ id: Int) -> String {
        #"{"wrapperType":"track","kind":"song","trackId":\#(id),"artistName":"Artist \#(id % 3)","trackName":"Song \#(id)","artworkUrl100":"https://art/\#(id)/100x100bb.jpg"}"#
    }

    @Test("paging by offset: full pages lead on, a short page ends the crawl, the total is how far it got")
    func offsetPaging() async throws {
        let server = try await TestHTTPServer.start { request in
            let limit = Int(request.query["limit"] ?? "50") ?? 50
            let offset = Int(request.query["offset"] ?? "0") ?? 0
            let ids = Array(offset..<min(offset + limit, 450))
            return .json(#"{"resultCount":\#(ids.count),"results":[\#(ids.map(Self.result).joined(separator: ","))]}"#)
        }
        let (source, http) = Self.source(server)
        var request: PageRequest? = PageRequest(
            crawlId: "c", source: "itunes", query: ["term": "song"], page: 1, pageSize: 200,
            cursor: ITunesCursor(offset: 0, lastPage: Int.max).text)
        var works: [String] = []
        var totals: [Int] = []
        while let current = request {
            let page = try await source.fetch(current)
            works += page.artworks.map(\.objectNumber)
            totals.append(page.total)
            #expect(!page.repeatedCursor)
            request = page.next.first
        }
        #expect(works == (0..<450).map { "itunes-\($0)" })
        #expect(totals == [200, 400, 450])
        #expect(server.requests.map { $0.query["offset"] } == [nil, "200", "400"])
        #expect(server.requests.allSatisfy { $0.query["limit"] == "200" && $0.query["term"] == "song" })
        try await http.shutdown()
        await server.stop()
    }

    @Test("a server that ignores offset: the second page repeats the first, and the crawl stops there")
    func ignoredOffset() async throws {
        let server = try await TestHTTPServer.start { _ in
            .json(#"{"resultCount":2,"results":[\#(Self.result(1)),\#(Self.result(2))]}"#)
        }
        let (source, http) = Self.source(server)
        let first = try await source.fetch(
            PageRequest(crawlId: "c", source: "itunes", query: ["term": "x"], page: 1, pageSize: 2))
        let second = try #require(first.next.first)
        let repeated = try await source.fetch(second)
        #expect(repeated.repeatedCursor)
        #expect(repeated.next.isEmpty)
        #expect(repeated.artworks.isEmpty)
        #expect(repeated.total == 2)
        try await http.shutdown()
        await server.stop()
    }

    @Test("a query needs a term and takes only the documented parameters; nothing is sent otherwise")
    func queries() async throws {
        let server = try await TestHTTPServer.start { _ in .json(#"{"resultCount":0,"results":[]}"#) }
        let (source, http) = Self.source(server)
        await #expect(throws: SourceFormatError.self) { _ = try await source.count(query: ["media": "music"]) }
        await #expect(throws: SourceFormatError.self) {
            _ = try await source.count(query: ["term": "a", "offset": "5"])
        }
        #expect(server.requests.isEmpty)
        #expect(try await source.count(query: ["term": "a"]).total == 0)
        try await http.shutdown()
        await server.stop()
    }

    @Test(
        "a host's own rate spaces its requests, the general one too (the slower wins); other hosts are not held to it")
    func hostRate() async throws {
        let clock = ContinuousClock()
        // Three requests at 4 a second start at least half a second apart, first to last,
        // whichever of the two rates is the slower.
        for (general, own) in [(1_000.0, 4.0), (4.0, 1_000.0)] {
            let limits = HostLimits(
                requestsPerSecond: general, requestsPerSecondByHost: ["api": own], concurrencyPerHost: 4)
            let start = clock.now
            for _ in 0..<3 { try await limits.run(host: "api") {} }
            #expect(clock.now - start >= .milliseconds(450), "general \(general), own \(own)")
        }
        // One request every 100 s on one host; another host's three are done long before that.
        let limits = HostLimits(requestsPerSecond: nil, requestsPerSecondByHost: ["slow": 0.01], concurrencyPerHost: 4)
        try await limits.run(host: "slow") {}
        let done = Atomic<Int>(0)
        let other = Task {
            for _ in 0..<3 {
                try await limits.run(host: "other") {}
                done.add(1, ordering: .relaxed)
            }
        }
        try await waitUntil("the other host's requests", timeout: .seconds(20)) { done.load(ordering: .relaxed) == 3 }
        other.cancel()
    }
}
