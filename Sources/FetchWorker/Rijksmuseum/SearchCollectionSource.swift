import ArtpipeSupport
import Foundation
import HTTPFetching
import PipelineContract
import Synchronization

/// The data.rijksmuseum.nl Search API: cursor pages of Linked Art ids, each resolved to its
/// object, creator and IIIF image. No key.
///
/// Besides: the date is the production's time span as named (in English first), its years from
/// `begin_of_the_begin` to `end_of_the_end`; the landing page and the IIIF manifest are digital
/// objects carrying a text about the object (a web page; one conforming to IIIF Presentation);
/// the rights are the object's own (`subject_to`, a rights statement), else its image's visual
/// item's; the image service is the IIIF image URL without region, size, rotation and quality.
///
/// Pages are cursor-paged, so only page 1 is planned by a crawl; FetchWorker publishes the
/// request of each next page itself. The cursor is opaque to everyone else: here it holds
/// the API's `pageToken` and the last page the crawl wants.
package final class SearchCollectionSource: CollectionSource {
    package static let sourceName = "rijksmuseum-search"
    package var name: String { Self.sourceName }
    package var isCursorPaged: Bool { true }
    /// The Search API's parameters (data.rijksmuseum.nl/docs/search); `pageToken` is the crawl's.
    static let parameters: Set<String> = [
        "creator", "title", "description", "type", "technique", "material", "creationDate", "imageAvailable",
        "objectNumber", "aboutActor", "memberOfSetId",
    ]
    package var queryParameters: Set<String>? { Self.parameters }
    /// The server's page: 100 ids.
    package var fixedPageSize: Int? { 100 }
    /// What the maker of a work with no known maker is called, as the legacy API did.
    static let unknownMaker = "anonymous"
    /// Linked Art, asked for explicitly: the museum's default profile is another model.
    static let linkedArtProfile = ("Accept-Profile", "<https://linked.art/ns/terms/>")

    let searchBase: URL
    let dataBase: URL
    let imageEdge: Int
    let resolveConcurrency: Int
    let http: HTTPFetcher
    private let creators = Mutex<[String: String]>([:])

    /// - Parameters:
    ///   - searchBase: where `/search/collection` lives (data.rijksmuseum.nl, or a test server).
    ///   - dataBase: where `https://id.rijksmuseum.nl/<n>` ids are fetched, as `<dataBase>/<n>`
    ///     (data.rijksmuseum.nl: the resolver would cost a redirect per document).
    package init(searchBase: URL, dataBase: URL, imageEdge: Int, resolveConcurrency: Int = 8, http: HTTPFetcher) {
        self.searchBase = searchBase
        self.dataBase = dataBase
        self.imageEdge = imageEdge
        self.resolveConcurrency = max(1, resolveConcurrency)
        self.http = http
    }

    package func count(query: [String: String]) async throws -> SourceCount {
        try check(query: query)
        let page = try await searchPage(query: query, pageToken: nil)
        return SourceCount(total: page.totalItems ?? page.orderedItems.count)
    }

    /// The search page first: the next page's request is known from it, whatever becomes of
    /// the objects. An object that cannot be read is left out with its reason; one that fails
    /// for the moment has the page tried again later.
    package func fetch(_ request: PageRequest) async throws -> SourcePage {
        try check(query: request.query)
        let cursor = try SearchPageCursor(request.cursor)
        let page = try await searchPage(query: request.query, pageToken: cursor.pageToken)
        var next: [PageRequest] = []
        let nextToken = page.next?.id.flatMap(Self.pageToken)
        let repeated = nextToken != nil && (nextToken == cursor.pageToken || nextToken == cursor.previous)
        if let token = nextToken, !repeated, request.page < cursor.lastPage {
            next.append(
                PageRequest(
                    crawlId: request.crawlId, source: name, query: request.query, page: request.page + 1,
                    pageSize: request.pageSize,
                    cursor: SearchPageCursor(pageToken: token, lastPage: cursor.lastPage, previous: cursor.pageToken)
                        .text))
        }
        let ids = page.orderedItems.compactMap(\.id)
        let outcomes = try await Array(ids.enumerated()).concurrentMap(limit: resolveConcurrency) { position, id in
            await self.outcome(id: id, position: position)
        }
        var result = SourcePage(total: page.totalItems ?? ids.count, artworks: [], next: next)
        for outcome in outcomes {
            switch outcome {
            case .artwork(let artwork): result.artworks.append(artwork)
            case .unreadable(let record): result.unreadable.append(record)
            case .retryLater(let retry): result.retryLater = result.retryLater ?? retry
            }
        }
        result.repeatedCursor = repeated
        return result
    }

    private func searchPage(query: [String: String], pageToken: String?) async throws -> LinkedArt.SearchPage {
        var components = URLComponents(
            url: searchBase.appendingPathComponent("search/collection"), resolvingAgainstBaseURL: false)!
        var items = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        if let pageToken { items.append(URLQueryItem(name: "pageToken", value: pageToken)) }
        components.setFormQuery(items)
        return try await decode(LinkedArt.SearchPage.self, from: components.url!, what: "search page")
    }

    /// What became of one object of a search page.
    enum ObjectOutcome: Sendable {
        case artwork(Artwork)
        case unreadable(UnreadableRecord)
        case retryLater(SourcePage.RetryLater)
    }

    func outcome(id: String, position: Int) async -> ObjectOutcome {
        do {
            return .artwork(try await artwork(id: id, position: position))
        } catch {
            if case .forNow(let retryAfter) = FailureClass.of(error) {
                return .retryLater(.init(reason: "object \(id): \(error)", retryAfter: retryAfter))
            }
            return .unreadable(UnreadableRecord(recordId: id, reason: "\(error)"))
        }
    }

    func artwork(id: String, position: Int) async throws -> Artwork {
        let object = try await decode(LinkedArt.HumanMadeObject.self, from: url(for: id), what: "object \(id)")
        guard let objectNumber = object.objectNumber, !objectNumber.isEmpty else {
            throw SourceFormatError("object \(id) has no object number")
        }
        async let artist = makerName(object.producedBy?.maker)
        async let shown = visualImage(shows: object.shows?.compactMap(\.id) ?? [])
        let image = try await shown
        var artwork = Artwork(
            objectNumber: objectNumber, title: object.title ?? "", artist: try await artist,
            imageURL: image.url.map { ImageURLSizing.sized($0, longestEdge: imageEdge) }, width: nil, height: nil,
            position: position)
        let timespan = object.producedBy?.timespan
        artwork.date = timespan?.displayName
        artwork.years = timespan?.years
        artwork.landingPage = object.landingPage
        artwork.rights = object.rights ?? image.rights
        artwork.iiifManifest = object.manifest
        artwork.iiifImageService = image.url.flatMap { IIIFImageRequest.service(of: $0) }
        return artwork
    }

    /// The maker's name: as the object writes it when it does, else the agent's, fetched once
    /// per agent; `anonymous` when nobody is named.
    private func makerName(_ maker: LinkedArt.AgentReference?) async throws -> String {
        if let inline = maker?.inlineName { return inline }
        guard let agentID = maker?.id else { return Self.unknownMaker }
        if let cached = creators.withLock({ $0[agentID] }) { return cached }
        let agent = try await decode(LinkedArt.Agent.self, from: url(for: agentID), what: "agent \(agentID)")
        let name =
            agent.name.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 } ?? Self.unknownMaker
        creators.withLock { $0[agentID] = name }
        return name
    }

    /// The IIIF URL of the first visual item that has a digital image, and the rights of that
    /// visual item, else of the first one fetched that states them.
    private func visualImage(shows: [String]) async throws -> (url: String?, rights: String?) {
        var rights: String?
        for visualID in shows {
            let visual = try await decode(
                LinkedArt.VisualItem.self, from: url(for: visualID), what: "visual item \(visualID)")
            rights = rights ?? visual.rights
            for digitalID in (visual.digitallyShownBy ?? []).compactMap(\.id) {
                let digital = try await decode(
                    LinkedArt.DigitalObject.self, from: url(for: digitalID), what: "digital object \(digitalID)")
                if let accessPoint = digital.accessPoint?.compactMap(\.id).first {
                    return (accessPoint, visual.rights ?? rights)
                }
            }
        }
        return (nil, rights)
    }

    private func decode<T: Decodable>(_ type: T.Type, from url: URL, what: String) async throws -> T {
        let allowed = Set([searchBase.host, dataBase.host].compactMap { $0 })
        // Ids come from the museum's data: never followed, nor redirected, to any other host.
        let response = try await http.get(url, accept: "application/ld+json", headers: [Self.linkedArtProfile]) {
            guard let host = $0.host, allowed.contains(host) else {
                throw SourceFormatError("not a museum host: \($0.host ?? "none")")
            }
            return []
        }
        do {
            return try LinkedArt.decoder.decode(T.self, from: Data(response.body))
        } catch let error as DecodingError where error.isNotJSON {
            throw UnrecognisedAnswerError("\(what) is not JSON", body: response.body)
        } catch let error as DecodingError {
            throw SourceFormatError("\(what) is not the expected Linked Art JSON (\(error.summary))")
        }
    }

    /// The hosts whose ids are followed; any other id in the data is refused, not fetched.
    static let museumHosts: Set<String> = ["id.rijksmuseum.nl", "data.rijksmuseum.nl"]

    /// Where to fetch an id: the museum's ids (`https://id.rijksmuseum.nl/<n>`) straight from
    /// the data host; an id of any other host is refused.
    func url(for id: String) throws -> URL {
        guard var components = URLComponents(string: id), components.host != nil else {
            throw SourceFormatError("'\(id)' is not a Linked Art id")
        }
        guard let host = components.host, Self.museumHosts.contains(host) else {
            throw SourceFormatError(
                "'\(id)' is not an id of the museum (\(Self.museumHosts.sorted().joined(separator: ", ")))")
        }
        if let base = URLComponents(url: dataBase, resolvingAgainstBaseURL: false) {
            components.scheme = base.scheme
            components.host = base.host
            components.port = base.port
        }
        guard let url = components.url else { throw SourceFormatError("'\(id)' is not a Linked Art id") }
        return url
    }

    static func pageToken(in url: String) -> String? {
        URLComponents(string: url)?.queryItems?.first { $0.name == "pageToken" }?.value
    }

    /// The opaque cursor: `last=N` and the API's `pageToken`, as a query string.
}
