import Foundation
import HTTPFetching
import Logging
import PipelineContract

/// The museum's OAI-PMH endpoint (`https://data.rijksmuseum.nl/oai`): `ListRecords` of EDM
/// records, about 200 a page as the server chooses, then `resumptionToken` pages. The only way
/// to hold the whole collection and stay current: `from`/`until` harvest what changed, and
/// deletions come as records with `status="deleted"`.
///
/// Cursor-paged like the Search API: a crawl plans page 1 and FetchWorker publishes each next
/// page's request. An expired or unknown token does not end the harvest: it starts again
/// from the newest datestamp it had reached, as the OAI-PMH guidelines advise.
public final class OAICollectionSource: CollectionSource {
    public static let sourceName = "rijksmuseum-oai"
    /// The query parameters a harvest takes; `from` and `until` are UTC, second granularity.
    public static let parameters: Set<String> = ["set", "from", "until"]
    public var queryParameters: Set<String>? { Self.parameters }
    /// The endpoint's page is about 200 records, its choice.
    public var fixedPageSize: Int? { 200 }
    public var name: String { Self.sourceName }
    public var isCursorPaged: Bool { true }
    public var isVersioned: Bool { true }

    let endpoint: URL
    let imageEdge: Int
    let parser: OAIResponseParser
    let http: HTTPFetcher
    let logger: Logger

    /// - Parameters:
    ///   - endpoint: the OAI-PMH base URL (`https://data.rijksmuseum.nl/oai`, or a stand-in's).
    ///   - language: the language titles and names are taken in, when the record has it.
    public init(endpoint: URL, language: String, imageEdge: Int, http: HTTPFetcher, logger: Logger) {
        self.endpoint = endpoint
        self.imageEdge = imageEdge
        self.parser = OAIResponseParser(language: language)
        self.http = http
        self.logger = logger
    }

    public func count(query: [String: String]) async throws -> SourceCount {
        try check(query: query)
        let page = try await list(query: query, token: nil)
        return SourceCount(total: page.completeListSize ?? page.records.count)
    }

    public func fetch(_ request: PageRequest) async throws -> SourcePage {
        try check(query: request.query)
        let cursor = PageCursor(request.cursor)
        var query = request.query
        var token = cursor.token
        let page: OAIListRecords
        do {
            page = try await list(query: query, token: token)
        } catch let error as OAIError where error.code == "badResumptionToken" && token != nil {
            // The token expired or the server forgot it: list again from where this harvest got to.
            // Records at that second come again; applying them twice changes nothing.
            if let reached = cursor.reached { query["from"] = reached }
            token = nil
            logger.warning(
                "resumption token refused; resuming the harvest from the last datestamp reached",
                metadata: ["page.id": "\(request.pageId)", "oai.from": "\(query["from"] ?? "the start")"])
            page = try await list(query: query, token: nil)
        }
        let reached = ([cursor.reached].compactMap { $0 } + page.records.map(\.datestamp)).max()
        let started = cursor.started ?? page.responseDate
        var next: [PageRequest] = []
        var completed: HarvestMark?
        if let nextToken = page.resumptionToken {
            if request.page < cursor.lastPage {
                next.append(
                    PageRequest(
                        crawlId: request.crawlId, source: name, query: request.query, page: request.page + 1,
                        pageSize: request.pageSize,
                        cursor: PageCursor(
                            token: nextToken, lastPage: cursor.lastPage, reached: reached, started: started
                        )
                        .text))
            }
        } else if let through = request.query["until"] ?? started {
            // The end of the list: every change up to the first answer (or `until`) is harvested.
            completed = HarvestMark(
                source: name, query: request.query, crawlId: request.crawlId, harvestedThrough: through,
                lastPageId: request.pageId)
        }
        let live = page.records.filter { !$0.deleted }
        let artworks = live.enumerated().map { position, record in
            Artwork(
                objectNumber: record.objectNumber, title: record.title, artist: record.creator,
                imageURL: record.imageURL.map { ImageURLSizing.sized($0, longestEdge: imageEdge) }, width: nil,
                height: nil, position: position, recordId: record.identifier, datestamp: record.datestamp)
        }
        let deletions = page.records.filter(\.deleted).map {
            RecordDeletion(recordId: $0.identifier, datestamp: $0.datestamp)
        }
        var result = SourcePage(
            total: page.completeListSize ?? page.records.count, artworks: artworks, next: next,
            deletions: deletions,
            unreadable: page.unreadable.map { UnreadableRecord(recordId: $0.identifier, reason: $0.reason) })
        result.completedHarvest = completed
        return result
    }

    /// One `ListRecords` page; `noRecordsMatch` is an empty list, not a failure. Other OAI
    /// errors (`badArgument`, `cannotDisseminateFormat`, `badVerb`) are the request's fault:
    /// asking again cannot help, so they are permanent, except an expired token, which `fetch` handles.
    private func list(query: [String: String], token: String?) async throws -> OAIListRecords {
        do {
            return try await listOnce(query: query, token: token)
        } catch let error as OAIError where error.code != "badResumptionToken" {
            throw SourceFormatError(error.description)
        }
    }

    private func listOnce(query: [String: String], token: String?) async throws -> OAIListRecords {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        if let token {
            components.setFormQuery([
                URLQueryItem(name: "verb", value: "ListRecords"), URLQueryItem(name: "resumptionToken", value: token),
            ])
        } else {
            components.setFormQuery(
                [URLQueryItem(name: "verb", value: "ListRecords"), URLQueryItem(name: "metadataPrefix", value: "edm")]
                    + query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) })
        }
        guard let url = components.url else { throw SourceFormatError("cannot make an OAI-PMH URL of \(query)") }
        let response = try await http.get(url, accept: "text/xml, application/xml")
        return try parser.parse(response.body)
    }
}
