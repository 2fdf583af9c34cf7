import Foundation
import HTTPFetching
import Logging
import PipelineContract

/// An OAI-PMH repository (``OAIRepository``): the museum's (`rijksmuseum-oai`), or any other
/// (`oai-pmh`, its base URL in the crawl's query). `ListRecords` of EDM, LIDO or `oai_dc`
/// records, a page as the server chooses, then `resumptionToken` pages. The only way to hold a
/// whole collection and stay current: `from`/`until` harvest what changed, and deletions come
/// as records with `status="deleted"`.
///
/// Cursor-paged like the Search API: a crawl plans page 1 and FetchWorker publishes each next
/// page's request. The server lists in its own order (identifier order at the museum), so a
/// refused token is answered by listing the whole slice again from its start: a long harvest
/// is cut by datestamp into slices of at most `sliceRecords` records when it is planned, so a
/// refusal near the end of a full harvest redoes one slice, not hours of pages.
package final class OAICollectionSource: CollectionSource {
    /// The museum's source, the default.
    package static let sourceName = OAIRepository.rijksmuseumSourceName
    package var queryParameters: Set<String>? { repository.queryParameters }
    /// A page is as long as the server chooses (about 200 records at most servers).
    package var fixedPageSize: Int? { 200 }
    package var name: String { repository.sourceName }
    package var isCursorPaged: Bool { true }
    package var isVersioned: Bool { true }
    /// Records per slice a harvest is cut into when planned (`--oai-slice-records`).
    package static let defaultSliceRecords = 10_000
    /// Refused tokens in a row after which a page waits on the retry topics instead of
    /// listing its slice again at once (a server whose tokens expire before they are used).
    static let maxRefusalsInARow = 10

    let repository: OAIRepository
    let imageEdge: Int
    let sliceRecords: Int
    let parser: OAIResponseParser
    let http: HTTPFetcher
    let logger: Logger

    /// - Parameters:
    ///   - language: the language titles and names are taken in, when the record has it.
    ///   - sliceRecords: the most records a slice of a planned harvest holds, where the server counts.
    package init(
        repository: OAIRepository, language: String, imageEdge: Int, sliceRecords: Int = defaultSliceRecords,
        http: HTTPFetcher, logger: Logger
    ) {
        self.repository = repository
        self.imageEdge = imageEdge
        self.sliceRecords = max(sliceRecords, 1)
        self.parser = OAIResponseParser(language: language)
        self.http = http
        self.logger = logger
    }

    /// The museum's endpoint (`https://data.rijksmuseum.nl/oai`, or a stand-in's).
    package convenience init(
        endpoint: URL, language: String, imageEdge: Int, sliceRecords: Int = defaultSliceRecords, http: HTTPFetcher,
        logger: Logger
    ) {
        self.init(
            repository: .rijksmuseum(endpoint: endpoint), language: language, imageEdge: imageEdge,
            sliceRecords: sliceRecords, http: http, logger: logger)
    }

    /// Counts the harvest with `ListIdentifiers` and, when it holds more than a slice, cuts its
    /// window by datestamp until every slice holds at most `sliceRecords` (by the server's counts).
    package func count(query: [String: String]) async throws -> SourceCount {
        try checkHarvest(query)
        var query = query
        query["metadataPrefix"] = try await metadataPrefix(query)
        // The museum's granularity is known; any other repository says it in `Identify`, asked
        // once here for the cuts' earliest datestamp too.
        let identified = repository.granularity == nil ? try await identify(query) : nil
        let granularity = repository.granularity ?? identified?.selection ?? .seconds
        let size = try await listSize(granularity.window(query))
        var count = SourceCount(total: size.count ?? size.listed)
        count.metadataPrefix = query["metadataPrefix"]
        count.selectsByDay = granularity == .days
        count.serverTime = size.responseDate
        count.isExact = size.count != nil
        // Slices are cut in seconds; a repository that selects by day is listed as one slice.
        guard granularity == .seconds, let total = size.count, total > sliceRecords else { return count }
        count.cuts = try await cuts(of: query, total: total, serverTime: size.responseDate, identified: identified)
        return count
    }

    package func firstCursor(count: SourceCount, lastPage: Int?) -> String? {
        var cursor = OAIHarvestCursor(
            lastPage: lastPage ?? .max, cuts: count.cuts,
            started: OAIDatestamp.checked(count.serverTime))
        cursor.format = count.metadataPrefix
        cursor.days = count.selectsByDay
        cursor.total = count.isExact ? count.total : nil
        return cursor.text
    }

    package func fetch(_ request: PageRequest) async throws -> SourcePage {
        try check(query: request.query)
        let cursor = try OAIHarvestCursor(request.cursor)
        var window = cursor.sliceQuery(request.query)
        if cursor.days { window = OAIGranularity.days.window(window) }
        if let format = repository.metadataPrefix ?? cursor.format { window["metadataPrefix"] = format }
        guard window["metadataPrefix"] != nil else {
            throw SourceFormatError("OAI-PMH cursor without a metadata format (format=…)")
        }
        let page: OAIListRecords
        var refused = false
        do {
            page = try await list(query: window, token: cursor.token)
        } catch let error as OAIError where error.code == "badResumptionToken" && cursor.token != nil {
            guard cursor.refusals < Self.maxRefusalsInARow else {
                throw OAITokensRefusedError(refusals: cursor.refusals + 1, slice: window)
            }
            refused = true
            // The list changed under the token. Records come in the server's order, not by
            // datestamp, so only the whole slice again is sure to miss none; a record listed
            // twice changes nothing.
            logger.warning(
                "resumption token refused; listing the slice again from its start",
                metadata: [
                    "page.id": "\(request.pageId)", "oai.from": "\(window["from"] ?? "the start")",
                    "oai.until": "\(window["until"] ?? "now")",
                    "oai.slice": "\(cursor.slice + 1) of \(cursor.cuts.count + 1)",
                ])
            page = try await list(query: window, token: nil)
        }
        var following = cursor
        following.started = cursor.started ?? OAIDatestamp.checked(page.responseDate)
        following.listed = cursor.listed + page.records.count + page.unreadable.count
        following.refusals = refused ? cursor.refusals + 1 : 0
        var next: [PageRequest] = []
        var completed: HarvestMark?
        if let token = page.resumptionToken {
            following.token = token
        } else if cursor.slice < cursor.cuts.count {
            following.slice += 1
            following.token = nil
        } else {
            following.token = nil
            // The end of the list: everything changed up to the harvest's `until`, but never
            // past the server's clock at its start, is harvested.
            if let through = [request.query["until"], following.started].compactMap({ $0 }).min() {
                completed = HarvestMark(
                    source: name, query: request.query, crawlId: request.crawlId, harvestedThrough: through,
                    lastPageId: request.pageId)
            }
        }
        if completed == nil, page.resumptionToken != nil || following.slice != cursor.slice,
            request.page < cursor.lastPage
        {
            next.append(
                PageRequest(
                    crawlId: request.crawlId, source: name, query: request.query, page: request.page + 1,
                    pageSize: request.pageSize, cursor: following.text))
        }
        let live = page.records.filter { !$0.deleted }
        let artworks = live.enumerated().map { position, record in
            record.artwork(position: position, imageEdge: imageEdge)
        }
        let deletions = page.records.filter(\.deleted).map {
            RecordDeletion(recordId: $0.identifier, datestamp: $0.datestamp)
        }
        // The harvest's size as planned, else the server's for an unsliced list (a size below
        // zero says none), else as far as it got.
        let complete = page.completeListSize.flatMap { $0 >= 0 ? $0 : nil }
        let total = cursor.total ?? (cursor.cuts.isEmpty ? complete : nil) ?? following.listed
        var result = SourcePage(
            total: total, artworks: artworks, next: next, deletions: deletions,
            unreadable: page.unreadable.map {
                UnreadableRecord(recordId: $0.identifier, reason: $0.reason, bytes: $0.bytes)
            })
        result.completedHarvest = completed
        return result
    }

    /// Where each slice after the first starts: the window halved by time until each part
    /// holds at most `sliceRecords`, by one `ListIdentifiers` count per left half (the right
    /// half's count is what is left). A second that alone holds more stays one slice.
    /// - Parameter identified: the repository's `Identify`, when it was asked already.
    private func cuts(
        of query: [String: String], total: Int, serverTime: String?, identified: OAIResponseParser.Repository?
    ) async throws -> [String] {
        var lower = query["from"]
        if lower == nil {
            // The repository's earliest datestamp; nil when it does not say in seconds.
            var said = identified
            if said == nil { said = try await identify(query) }
            lower = OAIDatestamp.checked(said?.earliestDatestamp)
        }
        guard let lower, let low = OAIDatestamp.date(lower),
            let upper = query["until"] ?? serverTime, let high = OAIDatestamp.date(upper), low < high
        else {
            logger.warning(
                "cannot cut the harvest into slices (no second-granularity window): a refused token lists it all again")
            return []
        }
        var starts: [Date] = []
        try await split(from: low, through: high, count: total, query: query, into: &starts)
        // The first slice starts at the window's own start: what lies before the first part
        // with records is empty, and a slice of its own would cost a request for nothing.
        return starts.dropFirst().map(OAIDatestamp.text)
    }

    private func split(
        from low: Date, through high: Date, count: Int, query: [String: String], into starts: inout [Date]
    ) async throws {
        guard count > 0 else { return }
        let seconds = high.timeIntervalSince(low).rounded(.down)
        guard count > sliceRecords, seconds >= 1 else {
            starts.append(low)
            return
        }
        let middle = low.addingTimeInterval((seconds / 2).rounded(.down))
        var left = query
        left["from"] = OAIDatestamp.text(low)
        left["until"] = OAIDatestamp.text(middle)
        let leftCount = try await listSize(left).count ?? count / 2
        try await split(from: low, through: middle, count: leftCount, query: query, into: &starts)
        try await split(
            from: middle.addingTimeInterval(1), through: high, count: max(count - leftCount, 0), query: query,
            into: &starts)
    }

    /// The first page of `ListIdentifiers` for `query`: how many records it matches.
    private func listSize(_ query: [String: String]) async throws -> OAIResponseParser.ListSize {
        let body = try await ask("ListIdentifiers", query: query)
        do {
            return try OAIResponseParser.listSize(body)
        } catch let error as OAIError {
            throw SourceFormatError(error.description)
        }
    }

    /// One `ListRecords` page; `noRecordsMatch` is an empty list, not a failure. Other OAI
    /// errors (`badArgument`, `cannotDisseminateFormat`, `badVerb`) are the request's fault:
    /// asking again cannot help, so they are permanent, except an expired token, which `fetch` handles.
    private func list(query: [String: String], token: String?) async throws -> OAIListRecords {
        do {
            return try parser.parse(try await ask("ListRecords", query: query, token: token))
        } catch let error as OAIError where error.code != "badResumptionToken" {
            throw SourceFormatError(error.description)
        }
    }

    /// Every identifier the repository lists for `query`'s scope (`set`; no window), following
    /// every token to the end. Throws when the listing cannot be completed (a refused token, an
    /// error page): a reconciliation must never take a partial list for the whole.
    package func listIdentifiers(query: [String: String]) async throws -> OAIIdentifierListing {
        try checkHarvest(query)
        var scope = query.filter { ["endpoint", "set", "metadataPrefix"].contains($0.key) }
        scope["metadataPrefix"] = try await metadataPrefix(scope)
        var listing: OAIIdentifierListing?
        var token: String?
        var tokens: Set<String> = []
        repeat {
            let body = try await ask("ListIdentifiers", query: scope, token: token)
            let page: OAIResponseParser.IdentifierPage
            do {
                page = try OAIResponseParser.identifierPage(body)
            } catch let error as OAIError {
                throw SourceFormatError("the identifiers could not be listed whole: \(error.description)")
            }
            guard let responseDate = OAIDatestamp.checked(page.responseDate) ?? listing?.responseDate else {
                throw SourceFormatError("the repository's answer has no responseDate to stamp removals with")
            }
            var next = listing ?? OAIIdentifierListing(responseDate: responseDate)
            next.present.formUnion(page.present)
            next.deleted.formUnion(page.deleted)
            listing = next
            token = page.resumptionToken
            if let token, !tokens.insert(token).inserted {
                throw SourceFormatError("the repository repeats a resumption token: the list never ends")
            }
        } while token != nil
        return listing!
    }

    /// The prefix a harvest asks for: the repository's, the crawl's (`metadataPrefix=`), or
    /// the best the repository offers (``OAIMetadataFormat/choose(from:)``).
    private func metadataPrefix(_ query: [String: String]) async throws -> String {
        if let fixed = repository.metadataPrefix ?? query["metadataPrefix"] { return fixed }
        let offered: [OAIMetadataFormat.Offered]
        do {
            offered = try OAIResponseParser.metadataFormats(try await ask("ListMetadataFormats", query: query))
        } catch let error as OAIError {
            throw SourceFormatError(error.description)
        }
        guard let chosen = OAIMetadataFormat.choose(from: offered) else {
            throw SourceFormatError(
                "the repository offers no format artpipe reads (EDM, LIDO or oai_dc): it offers "
                    + (offered.isEmpty
                        ? "none" : offered.map { "\($0.prefix) (\($0.namespace))" }.joined(separator: ", ")))
        }
        logger.info(
            "metadata format chosen from the repository's offer",
            metadata: ["oai.metadataPrefix": "\(chosen)", "oai.offered": "\(offered.map(\.prefix))"])
        return chosen
    }

    /// What `Identify` says of the repository. One that keeps no deletions is said so: only a
    /// reconciliation removes what it drops.
    private func identify(_ query: [String: String]) async throws -> OAIResponseParser.Repository {
        let identified: OAIResponseParser.Repository
        do {
            identified = try OAIResponseParser.repository(try await ask("Identify", query: query))
        } catch let error as OAIError {
            throw SourceFormatError(error.description)
        }
        if let kept = identified.deletedRecord, kept != "persistent" {
            logger.warning(
                "the repository does not keep every deletion: works it drops stay in the index until crawl --reconcile",
                metadata: ["oai.deletedRecord": "\(kept)"])
        }
        return identified
    }

    /// Refuses a harvest whose parameters the source does not take, or, for any repository,
    /// without a base URL: before anything is published.
    private func checkHarvest(_ query: [String: String]) throws {
        try check(query: query)
        _ = try repository.endpoint(for: query)
    }

    /// The body of one request to the endpoint: `verb` with a token (which replaces every other
    /// argument), or with the query's `metadataPrefix`, `set`, `from` and `until` for the list verbs.
    private func ask(_ verb: String, query: [String: String] = [:], token: String? = nil) async throws -> [UInt8] {
        let endpoint = try repository.endpoint(for: query)
        var items = [URLQueryItem(name: "verb", value: verb)]
        if let token {
            items.append(URLQueryItem(name: "resumptionToken", value: token))
        } else if verb != "Identify" && verb != "ListMetadataFormats" {
            items += query.filter { $0.key != "endpoint" }.sorted { $0.key < $1.key }.map {
                URLQueryItem(name: $0.key, value: $0.value)
            }
        }
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else {
            throw SourceFormatError("cannot make an OAI-PMH URL of \(query)")
        }
        components.setFormQuery(items)
        guard let url = components.url else { throw SourceFormatError("cannot make an OAI-PMH URL of \(query)") }
        return try await http.get(url, accept: "text/xml, application/xml").body
    }
}
