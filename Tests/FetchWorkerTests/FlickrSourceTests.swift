import ArtpipeRuntime
import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import HTTPTestKit
import KafkaClient
import PipelineContract
import SampleCollection
import Testing

@testable import FetchWorker
@testable import HTTPFetching

@Suite("Flickr photo search", .timeLimit(.minutes(2)))
struct FlickrSourceTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        try RecordedFixture.bytes("flickr/\(name)")
    }

    static let key = "0123456789abcdef0123456789abcdef"

    static func source(_ server: TestHTTPServer, key: String = key, imageEdge: Int = 512) -> (
        FlickrSearchSource, HTTPFetcher
    ) {
        source(baseURL: server.baseURL, key: key, imageEdge: imageEdge)
    }

    static func source(baseURL: String, key: String = key, imageEdge: Int = 512) -> (FlickrSearchSource, HTTPFetcher) {
        let http = HTTPFetcher(
            configuration: HTTPFetcherConfiguration(), redaction: SecretRedaction(secrets: [key]), logger: .test)
        let endpoint = URL(string: baseURL + "/services/rest/")!
        return (FlickrSearchSource(endpoint: endpoint, apiKey: key, imageEdge: imageEdge, http: http), http)
    }

    @Test("recorded pages: the total as a number or a string, photos by id, the owner's name when asked for")
    func recordedPages() throws {
        let nice = try FlickrSearchSource.parse(Self.fixture("denissimon_photos.search_nice_perpage5_page1"))
        #expect(nice.total == 112_301)
        #expect(nice.photo.count == 5)
        let trimmed = try FlickrSearchSource.parse(Self.fixture("cryptoflickr_photos.search_trimmed"))
        #expect(trimmed.total == 292_073)
        #expect(trimmed.perpage == 100)

        // Without extras: the NSID stands in for the owner's name, and there is no image to fetch.
        let bare = FlickrSearchSource.artworks(of: nice.photo, imageEdge: 512)
        #expect(bare.first?.objectNumber == "flickr-53624890009")
        #expect(bare.first?.artist == "105731165@N07")
        #expect(bare.first?.title == "Andrea  Modelo  Model")
        #expect(bare.allSatisfy { $0.imageURL == nil })

        let cats = try FlickrSearchSource.parse(Self.fixture("shoya123_photos.search_cat_extras_perpage20_page1"))
        #expect(cats.total == 234)
        #expect(cats.pages == 12)
        let works = FlickrSearchSource.artworks(of: cats.photo, imageEdge: 512)
        #expect(works.count == 20)
        let first = try #require(works.first)
        #expect(first.objectNumber == "flickr-2448337677")
        #expect(first.artist == "mmarsupilami")
        #expect(first.title == "Agriscruteur")
        #expect(first.imageURL == "https://live.staticflickr.com/2082/2448337677_592a1a3238_b.jpg")
        #expect(first.width == 1024 && first.height == 899)
        #expect(cats.photo.first?.dateUpload == 1_209_388_984)
        // The photo's page by its owner's NSID (no path alias was asked for), when it was taken;
        // no licence was asked for, so no rights are said.
        #expect(first.landingPage == "https://www.flickr.com/photos/58722587@N00/2448337677")
        #expect(first.date == "2008-04-26 21:06:26")
        #expect(first.years == YearRange(earliest: 2008, latest: 2008))
        #expect(works.allSatisfy { $0.rights == nil && $0.iiifManifest == nil && $0.iiifImageService == nil })
        #expect(works.allSatisfy { $0.date != nil && $0.landingPage != nil })
        #expect(bare.first?.landingPage == "https://www.flickr.com/photos/105731165@N07/53624890009")
        #expect(bare.allSatisfy { $0.date == nil }, "without extras there is no date taken")
    }

    @Test("a licence id is its rights statement, a path alias names the page, the date is as precise as Flickr says")
    func licencesAliasesAndDates() throws {
        let body = #"""
            {"stat":"ok","photos":{"page":1,"pages":1,"perpage":8,"total":"8","photo":[
             {"id":"1","owner":"a@N00","license":"0","datetaken":"2010-06-15 14:32:10","datetakengranularity":"0"},
             {"id":"2","owner":"a@N00","pathalias":"kunstfotos","license":4,"datetaken":"2010-06-01 00:00:00","datetakengranularity":"4"},
             {"id":"3","owner":"a@N00","license":"7","datetaken":"1915-01-01 00:00:00","datetakengranularity":6},
             {"id":"4","owner":"a@N00","license":"8","datetaken":"1950-01-01 00:00:00","datetakengranularity":"8"},
             {"id":"5","owner":"a@N00","license":"9","datetaken":"2020-02-02 10:00:00","datetakenunknown":"1"},
             {"id":"6","owner":"a@N00","license":"10","pathalias":""},
             {"id":"7","owner":"a/../b","license":"99"},
             {"id":"8","license":"1"}]}}
            """#
        let photos = try FlickrSearchSource.parse(Array(body.utf8)).photo
        let works = FlickrSearchSource.artworks(of: photos, imageEdge: 512)
        #expect(
            works.map(\.rights) == [
                "All Rights Reserved", "https://creativecommons.org/licenses/by/2.0/",
                "https://www.flickr.com/commons/usage/", "United States Government Work",
                "https://creativecommons.org/publicdomain/zero/1.0/",
                "https://creativecommons.org/publicdomain/mark/1.0/", nil,
                "https://creativecommons.org/licenses/by-nc-sa/2.0/",
            ])
        #expect(
            works.map(\.landingPage) == [
                "https://www.flickr.com/photos/a@N00/1", "https://www.flickr.com/photos/kunstfotos/2",
                "https://www.flickr.com/photos/a@N00/3", "https://www.flickr.com/photos/a@N00/4",
                "https://www.flickr.com/photos/a@N00/5", "https://www.flickr.com/photos/a@N00/6", nil, nil,
            ])
        #expect(works.map(\.date) == ["2010-06-15 14:32:10", "2010-06", "1915", "c. 1950", nil, nil, nil, nil])
        #expect(
            works.map(\.years) == [
                YearRange(earliest: 2010, latest: 2010), YearRange(earliest: 2010, latest: 2010),
                YearRange(earliest: 1915, latest: 1915), YearRange(earliest: 1950, latest: 1950), nil, nil, nil, nil,
            ])
    }

    @Test("stat:fail — an invalid key and an unknown method are permanent, other codes are tried again")
    func failures() throws {
        #expect(throws: SourceFormatError.self) {
            try FlickrSearchSource.parse(Self.fixture("denissimon_error_invalid_api_key"))
        }
        do {
            _ = try FlickrSearchSource.parse(Self.fixture("flickrex_error_112_method-not-found"))
            Issue.record("code 112 parsed as a page")
        } catch let error as SourceFormatError {
            #expect(error.description.contains("code 112"))
        }
        #expect(throws: SourceUnavailableError.self) {
            try FlickrSearchSource.parse(
                Array(#"{"stat":"fail","code":105,"message":"Service currently unavailable"}"#.utf8))
        }
        #expect(throws: UnrecognisedAnswerError.self) {
            try FlickrSearchSource.parse(Array("<html>Flickr is down for maintenance</html>".utf8))
        }
    }

    @Test("the image is the smallest size that reaches the edge asked for, else the largest there is")
    func imageSizes() throws {
        let body = #"""
            {"stat":"ok","photos":{"page":1,"pages":1,"perpage":3,"total":"3","photo":[
             {"id":"1","owner":"a@N00","ownername":"A","title":"all sizes",
              "url_m":"https://img/1_m.jpg","width_m":"500","height_m":"375",
              "url_z":"https://img/1_z.jpg","width_z":640,"height_z":480,
              "url_l":"https://img/1_l.jpg","width_l":"1024","height_l":"768"},
             {"id":"2","owner":"a@N00","ownername":"A","title":"small only","url_m":"https://img/2_m.jpg"},
             {"id":"2","owner":"a@N00","ownername":"A","title":"the same photo again"}]}}
            """#
        let photos = try FlickrSearchSource.parse(Array(body.utf8))
        let works = FlickrSearchSource.artworks(of: photos.photo, imageEdge: 512)
        #expect(works.map(\.imageURL) == ["https://img/1_z.jpg", "https://img/2_m.jpg"])
        #expect(FlickrSearchSource.artworks(of: photos.photo, imageEdge: 2000).first?.imageURL == "https://img/1_l.jpg")
        #expect(FlickrSearchSource.requestedSizes(imageEdge: 512) == ["m", "z", "c", "l"])
        #expect(FlickrSearchSource.requestedSizes(imageEdge: 40) == ["sq", "t", "q"])
    }

    @Test("a page over HTTP: the method, key, paging and extras are the source's; the query passes through")
    func pageOverHTTP() async throws {
        let page = try Self.fixture("shoya123_photos.search_cat_extras_perpage20_page1")
        let server = try await TestHTTPServer.start { _ in TestHTTPServer.Response(body: page) }
        let (source, http) = Self.source(server)
        let request = PageRequest(
            crawlId: "c", source: "flickr", query: ["text": "cat", "extras": "tags"], page: 3, pageSize: 20)
        let fetched = try await source.fetch(request)
        #expect(fetched.total == 234)
        #expect(fetched.artworks.count == 20)
        let seen = try #require(server.requests.first)
        #expect(seen.path == "/services/rest/" || seen.path == "/services/rest")
        #expect(seen.query["method"] == "flickr.photos.search")
        #expect(seen.query["api_key"] == Self.key)
        #expect(seen.query["format"] == "json" && seen.query["nojsoncallback"] == "1")
        #expect(seen.query["page"] == "3" && seen.query["per_page"] == "20")
        #expect(seen.query["text"] == "cat")
        let extras = Set((seen.query["extras"] ?? "").split(separator: ",").map(String.init))
        let needed: Set<String> = ["owner_name", "date_upload", "date_taken", "license", "path_alias", "url_z", "tags"]
        #expect(extras.isSuperset(of: needed))

        // Past Flickr's first 4,000 results nothing is sent.
        await #expect(throws: SourceFormatError.self) {
            _ = try await source.fetch(PageRequest(crawlId: "c", source: "flickr", query: [:], page: 9, pageSize: 500))
        }
        #expect(server.requests.count == 1)
        try await http.shutdown()
        await server.stop()
    }

    @Test(
        "planning: a query whose every second matches past 4,000 cannot be cut and says so; a range within reach is planned"
    )
    func planning() async throws {
        let server = try await TestHTTPServer.start { request in
            let total = request.query["text"] == "many" ? 12_345 : 950
            return .json(
                #"{"stat":"ok","photos":{"page":1,"pages":1,"perpage":1,"total":"\#(total)","photo":[]}}"#)
        }
        let (source, http) = Self.source(server)
        do {
            _ = try await CrawlPlanner.plan(
                source: source, query: ["text": "many", "min_upload_date": "1000", "max_upload_date": "1063"],
                pages: .all, pageSize: 500, crawlId: "c")
            Issue.record("a query past Flickr's reach was planned")
        } catch let error as CrawlPlanningError {
            #expect(error.description.contains("matches 12345 objects"), "\(error)")
            #expect(error.description.contains("cannot be cut further"), "\(error)")
        }
        // The planner's count, then 1000…1063 halved down to its first second: 64, 32, 16, 8, 4, 2, 1 seconds.
        #expect(server.requests.count == 8)
        #expect(server.requests.last?.query["min_upload_date"] == "1000")
        #expect(server.requests.last?.query["max_upload_date"] == "1000")
        let within = try await CrawlPlanner.plan(
            source: source, query: ["text": "many"], pages: .range(1...8), pageSize: 500, crawlId: "c")
        #expect(within.requests.map(\.page) == Array(1...8))
        let small = try await CrawlPlanner.plan(
            source: source, query: ["text": "few"], pages: .all, pageSize: 100, crawlId: "c")
        #expect(small.requests.count == 10)
        #expect(small.total == 950)
        await #expect(throws: SourceFormatError.self) {
            _ = try await source.ranges(of: ["text": "many", "min_upload_date": "2020-01-01"], pageSize: 500)
        }
        try await http.shutdown()
        await server.stop()
    }

    @Test("upload-date bounds at the ends of Int are halved without overflow, down to the second that cannot be cut")
    func extremeBounds() async throws {
        let server = try await TestHTTPServer.start { _ in
            .json(#"{"stat":"ok","photos":{"page":1,"pages":1,"perpage":1,"total":"12345","photo":[]}}"#)
        }
        let (source, http) = Self.source(server)
        await #expect(throws: CrawlPlanningError.self) {
            _ = try await source.ranges(
                of: ["text": "many", "min_upload_date": "\(Int.min)", "max_upload_date": "\(Int.max)"],
                pageSize: 500)
        }
        #expect(server.requests.last?.query["max_upload_date"] == "\(Int.min)")
        try await http.shutdown()
        await server.stop()
    }

    @Test("a page size that does not divide 4,000: every range fits the reach at that size, so no page is past it")
    func rangesFitThePageSize() async throws {
        // 3,950 photos, one a second from 1000 on: one range at page size 500, more at 300 (13 × 300 = 3,900).
        let server = try await TestHTTPServer.start { request in
            let low = max(Int(request.query["min_upload_date"] ?? "") ?? 0, 1_000)
            let high = min(Int(request.query["max_upload_date"] ?? "") ?? Int.max, 4_949)
            return .json(
                #"{"stat":"ok","photos":{"page":1,"pages":1,"perpage":1,"total":"\#(max(high - low + 1, 0))","photo":[]}}"#
            )
        }
        let (source, http) = Self.source(server)
        let plan = try await CrawlPlanner.plan(
            source: source, query: ["text": "x", "min_upload_date": "0", "max_upload_date": "9999"], pages: .all,
            pageSize: 300, crawlId: "c")
        try await http.shutdown()
        await server.stop()
        #expect(plan.total == 3_950)
        var pagesOfRange: [String: Int] = [:]
        for request in plan.requests { pagesOfRange[request.query["min_upload_date"]!, default: 0] += 1 }
        #expect(pagesOfRange.count > 1, "cut, since 3,950 is past 3,900")
        #expect(pagesOfRange.values.allSatisfy { $0 * 300 <= 4_000 }, "\(pagesOfRange)")
    }

    @Test(
        "past 4,000 results, --pages all cuts the query by upload date: every photo of the stand-in reached, no page past the reach"
    )
    func uploadDateRanges() async throws {
        var configuration = SampleCollection.Configuration()
        configuration.seed = 3
        configuration.pages = 90
        configuration.pageSize = 100
        let sample = try await SampleServerHandle.start(configuration)
        let (source, http) = Self.source(baseURL: sample.baseURL)
        let plan = try await CrawlPlanner.plan(
            source: source, query: ["text": "painting"], pages: .all, pageSize: 500, crawlId: "c")
        #expect(plan.total == sample.collection.count)
        #expect(plan.requests.map(\.page) == Array(1...plan.lastPage))
        #expect(Set(plan.requests.map(\.query)).count > 2, "cut into ranges")
        #expect(Set(plan.requests.map(\.pageId)).count == plan.requests.count)
        var seen: [String] = []
        for request in plan.requests {
            let page = try await source.fetch(request)
            seen += page.artworks.map(\.objectNumber)
        }
        let listed = sample.collection.pages.joined().map { FlickrSearchSource.objectNumber(photoId: String($0.id)) }
        // Every photo is reached; a photo repeated within one page is kept once there.
        let missing = Set(listed).subtracting(seen)
        let extra = Set(seen).subtracting(listed)
        #expect(
            missing.isEmpty && extra.isEmpty, "missing \(missing.sorted().prefix(5)), extra \(extra.sorted().prefix(5))"
        )
        #expect(seen.count <= listed.count && seen.count >= Set(listed).count)
        try await http.shutdown()
        await sample.stop()
    }

    @Test("no key: nothing is sent and the error says how to give one; the key never shows in an error")
    func keys() async throws {
        let server = try await TestHTTPServer.start { _ in TestHTTPServer.Response(status: 403) }
        let (keyless, keylessHTTP) = Self.source(server, key: "")
        do {
            _ = try await keyless.count(query: ["text": "cat"])
            Issue.record("a keyless count was sent")
        } catch let error as SourceFormatError {
            #expect(error.description.contains("FLICKR_API_KEY"))
        }
        #expect(server.requests.isEmpty)
        try await keylessHTTP.shutdown()

        let (source, http) = Self.source(server)
        let handler = PageFetchHandler(sources: [source], redaction: SecretRedaction(secrets: [Self.key]), chains: nil)
        let request = PageRequest(crawlId: "c", source: "flickr", query: ["text": "cat"], page: 1, pageSize: 10)
        let message = KafkaConsumerMessage(
            topic: ArtpipeTopic.pageRequests, partition: 0, offset: 0, key: nil,
            value: try MessageCodec.record(request, topic: ArtpipeTopic.pageRequests).value)
        do {
            _ = try await handler.handle(request, context: MessageContext(message: message, attempt: 1, logger: .test))
            Issue.record("a 403 was not a failure")
        } catch let failure as HandlerFailure {
            #expect(!"\(failure)".contains(Self.key))
            #expect("\(failure)".contains("403"))
        }
        try await http.shutdown()
        await server.stop()
    }
}
