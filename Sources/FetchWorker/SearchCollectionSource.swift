import ArtpipeSupport
import Foundation
import HTTPFetching
import PipelineContract
import Synchronization

/// The data.rijksmuseum.nl Search API: cursor pages of Linked Art ids, each resolved to its
/// object, creator and IIIF image. No key.
///
/// Pages are cursor-paged, so only page 1 is planned by a crawl; FetchWorker publishes the
/// request of each next page itself. The cursor is opaque to everyone else: here it holds
/// the API's `pageToken` and the last page the crawl wants.
public final class SearchCollectionSource: CollectionSource {
    public static let sourceName = "rijksmuseum-search"
    public var name: String { Self.sourceName }
    public var isCursorPaged: Bool { true }

    let searchBase: URL
    let idBase: URL?
    let imageEdge: Int
    let resolveConcurrency: Int
    let http: HTTPFetcher
    private let creators = Mutex<[String: String]>([:])

    /// - Parameters:
    ///   - searchBase: where `/search/collection` lives (data.rijksmuseum.nl, or a test server).
    ///   - idBase: when set, `https://id.rijksmuseum.nl/…` ids are fetched from here instead.
    public init(searchBase: URL, idBase: URL?, imageEdge: Int, resolveConcurrency: Int = 8, http: HTTPFetcher) {
        self.searchBase = searchBase
        self.idBase = idBase
        self.imageEdge = imageEdge
        self.resolveConcurrency = max(1, resolveConcurrency)
        self.http = http
    }

    public func count(query: [String: String]) async throws -> SourceCount {
        let page = try await searchPage(query: query, pageToken: nil)
        return SourceCount(total: page.partOf?.totalItems ?? page.orderedItems.count)
    }

    public func fetch(_ request: PageRequest) async throws -> SourcePage {
        let cursor = PageCursor(request.cursor)
        let page = try await searchPage(query: request.query, pageToken: cursor.token)
        let ids = page.orderedItems.compactMap(\.id)
        let artworks = try await resolve(ids)
        var next: [PageRequest] = []
        if let nextID = page.next?.id, let token = Self.pageToken(in: nextID), request.page < cursor.lastPage {
            next.append(
                PageRequest(
                    crawlId: request.crawlId, source: name, query: request.query, page: request.page + 1,
                    pageSize: request.pageSize, cursor: PageCursor(token: token, lastPage: cursor.lastPage).text))
        }
        return SourcePage(total: page.partOf?.totalItems ?? ids.count, artworks: artworks, next: next)
    }

    private func searchPage(query: [String: String], pageToken: String?) async throws -> LinkedArt.SearchPage {
        var components = URLComponents(
            url: searchBase.appendingPathComponent("search/collection"), resolvingAgainstBaseURL: false)!
        var items = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        if let pageToken { items.append(URLQueryItem(name: "pageToken", value: pageToken)) }
        components.queryItems = items.isEmpty ? nil : items
        return try await decode(LinkedArt.SearchPage.self, from: components.url!, what: "search page")
    }

    /// Resolves ids to artworks with at most `resolveConcurrency` objects in flight, keeping
    /// the search order as positions.
    private func resolve(_ ids: [String]) async throws -> [Artwork] {
        try await Array(ids.enumerated()).concurrentMap(limit: resolveConcurrency) { position, id in
            try await self.artwork(id: id, position: position)
        }
    }

    func artwork(id: String, position: Int) async throws -> Artwork {
        let object = try await decode(LinkedArt.HumanMadeObject.self, from: url(for: id), what: "object \(id)")
        guard let objectNumber = object.objectNumber, !objectNumber.isEmpty else {
            throw SourceFormatError("object \(id) has no object number")
        }
        async let artist = creatorName(object.producedBy?.agents.first)
        async let image = imageURL(shows: object.shows?.compactMap(\.id) ?? [])
        return Artwork(
            objectNumber: objectNumber, title: object.title ?? "", artist: try await artist,
            imageURL: try await image.map { ImageURLSizing.sized($0, longestEdge: imageEdge) }, width: nil, height: nil,
            position: position)
    }

    /// The creator's name, fetched once per agent.
    private func creatorName(_ agentID: String?) async throws -> String {
        guard let agentID else { return "" }
        if let cached = creators.withLock({ $0[agentID] }) { return cached }
        let agent = try await decode(LinkedArt.Agent.self, from: url(for: agentID), what: "agent \(agentID)")
        let name = agent.name ?? ""
        creators.withLock { $0[agentID] = name }
        return name
    }

    /// The IIIF URL of the first visual item that has a digital image.
    private func imageURL(shows: [String]) async throws -> String? {
        for visualID in shows {
            let visual = try await decode(
                LinkedArt.VisualItem.self, from: url(for: visualID), what: "visual item \(visualID)")
            for digitalID in (visual.digitallyShownBy ?? []).compactMap(\.id) {
                let digital = try await decode(
                    LinkedArt.DigitalObject.self, from: url(for: digitalID), what: "digital object \(digitalID)")
                if let accessPoint = digital.accessPoint?.compactMap(\.id).first { return accessPoint }
            }
        }
        return nil
    }

    private func decode<T: Decodable>(_ type: T.Type, from url: URL, what: String) async throws -> T {
        let response = try await http.get(url, accept: "application/ld+json")
        do {
            return try LinkedArt.decoder.decode(T.self, from: Data(response.body))
        } catch let error as DecodingError where error.isNotJSON {
            throw UnrecognisedAnswerError("\(what) is not JSON", body: response.body)
        } catch let error as DecodingError {
            throw SourceFormatError("\(what) is not the expected Linked Art JSON (\(error.summary))")
        }
    }

    /// Where to fetch an id: ids of the museum's id host go to `idBase` when one is set.
    func url(for id: String) throws -> URL {
        guard var components = URLComponents(string: id), components.host != nil else {
            throw SourceFormatError("'\(id)' is not a Linked Art id")
        }
        if let idBase, components.host == "id.rijksmuseum.nl",
            let base = URLComponents(url: idBase, resolvingAgainstBaseURL: false)
        {
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
