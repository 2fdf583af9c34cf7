import Foundation
import HTTPFetching
import PipelineContract

/// The iTunes Search API (`/search`), grouped by `artistName`.
///
/// Answers hold up to 200 results (`limit`). Paging further uses `offset`, which Apple does
/// not document: the source follows it while pages come back full, stops at a short or empty
/// page, and stops (saying so) when a page starts with the work the page before started
/// with, as a server that ignores `offset` would answer. Each page's `total` is how far the
/// crawl has got, since the API never says how many results a search has.
package struct ITunesSearchSource: CollectionSource {
    package static let sourceName = "itunes"
    static let pageSizeLimit = 200
    /// Apple asks for about 20 calls a minute.
    package static let callsPerMinute = 20.0
    /// The documented parameters; `limit` and `offset` are the crawl's.
    static let parameters: Set<String> = [
        "term", "country", "media", "entity", "attribute", "lang", "version", "explicit",
    ]

    package var name: String { Self.sourceName }
    package var isCursorPaged: Bool { true }
    package var queryParameters: Set<String>? { Self.parameters }
    package var maxPageSize: Int { Self.pageSizeLimit }

    let endpoint: URL
    let imageEdge: Int
    let http: HTTPFetcher

    /// - Parameter endpoint: `https://itunes.apple.com/search` or a stand-in.
    package init(endpoint: URL, imageEdge: Int, http: HTTPFetcher) {
        self.endpoint = endpoint
        self.imageEdge = imageEdge
        self.http = http
    }

    /// The furthest offset a cursor may carry: past any result the service pages to.
    static let maxOffset = PageRequest.maxPage * PageRequest.maxPageSize

    package func count(query: [String: String]) async throws -> SourceCount {
        let answer = try await search(query: query, limit: Self.pageSizeLimit, offset: 0)
        return SourceCount(total: answer.resultCount)
    }

    package func fetch(_ request: PageRequest) async throws -> SourcePage {
        guard (1...Self.pageSizeLimit).contains(request.pageSize) else {
            throw SourceFormatError("page size \(request.pageSize) is outside 1…\(Self.pageSizeLimit)")
        }
        let cursor = try ITunesCursor(request.cursor, maxOffset: Self.maxOffset)
        let offset = cursor.offset
        let answer = try await search(query: request.query, limit: request.pageSize, offset: offset)
        let artworks = Self.artworks(of: answer.results, imageEdge: imageEdge)
        var page = SourcePage(total: offset + answer.results.count, artworks: artworks)
        let first = artworks.first?.objectNumber
        page.repeatedCursor = first != nil && first == cursor.previousFirst
        if page.repeatedCursor {
            page.artworks = []
            page.total = offset
        } else if answer.results.count >= request.pageSize, request.page < cursor.lastPage {
            page.next.append(
                PageRequest(
                    crawlId: request.crawlId, source: name, query: request.query, page: request.page + 1,
                    pageSize: request.pageSize,
                    cursor: ITunesCursor(
                        offset: offset + request.pageSize, lastPage: cursor.lastPage, previousFirst: first
                    )
                    .text))
        }
        return page
    }

    private func search(query: [String: String], limit: Int, offset: Int) async throws -> ITunesSearchResponse {
        try check(query: query)
        guard let term = query["term"], !term.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw SourceFormatError("itunes needs a search term: --query term=…")
        }
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        var items = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        items.append(URLQueryItem(name: "limit", value: String(limit)))
        if offset > 0 { items.append(URLQueryItem(name: "offset", value: String(offset))) }
        components.setFormQuery(items)
        let response = try await http.get(components.url!)
        return try Self.parse(response.body)
    }

    /// Blank lines around the JSON, as the service sends them, are whitespace to the decoder.
    static func parse(_ body: [UInt8]) throws -> ITunesSearchResponse {
        do {
            return try JSONDecoder().decode(ITunesSearchResponse.self, from: Data(body))
        } catch let error as DecodingError where error.isNotJSON {
            throw UnrecognisedAnswerError("itunes' answer is not JSON", body: body)
        } catch let error as DecodingError {
            throw SourceFormatError("itunes' answer is not the expected JSON (\(error.summary))")
        }
    }

    /// Maps results to works: the track's id, or the collection's for collections and audiobooks
    /// (`itunes-<id>`), as the object number; the track's or collection's name as the title;
    /// `artistName` as the artist. Artist results are not works and are left out, as is a
    /// result already on the page. The landing page is the work's store page (`trackViewUrl`,
    /// else `collectionViewUrl`; a collection's own for collections), the date `releaseDate` as
    /// written, the rights `copyright`.
    static func artworks(of results: [ITunesSearchResponse.Result], imageEdge: Int) -> [Artwork] {
        var seen = Set<Int>()
        var artworks: [Artwork] = []
        for (position, result) in results.enumerated() {
            let isCollection = ["collection", "audiobook"].contains(result.wrapperType)
            guard result.wrapperType != "artist",
                let id = isCollection ? result.collectionId : (result.trackId ?? result.collectionId),
                seen.insert(id).inserted
            else { continue }
            let title = isCollection ? result.collectionName : (result.trackName ?? result.collectionName)
            let image = result.artworkUrl100 ?? result.artworkUrl60 ?? result.artworkUrl30
            var artwork = Artwork(
                objectNumber: objectNumber(id: id), title: title ?? "",
                artist: result.artistName?.trimmingCharacters(in: .whitespaces) ?? "",
                imageURL: image.map { sizedArtwork($0, edge: imageEdge) }, width: nil, height: nil,
                position: position)
            let (track, collection) = (result.trackViewUrl?.value, result.collectionViewUrl?.value)
            let page = isCollection ? collection : (track ?? collection)
            artwork.landingPage = nonEmpty(page)
            artwork.date = nonEmpty(result.releaseDate?.value)
            artwork.years = artwork.date.flatMap { YearText.years(in: $0) }
            artwork.rights = nonEmpty(result.copyright?.value)
            artworks.append(artwork)
        }
        return artworks
    }

    static func objectNumber(id: Int) -> String { "itunes-\(id)" }

    /// `text` trimmed; nil when nothing is left.
    private static func nonEmpty(_ text: String?) -> String? {
        text.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Artwork URLs name their size in the last path segment (`…/100x100bb.jpg`, older
    /// `….100x100-75.jpg`); the image server scales to whatever size is written there.
    static func sizedArtwork(_ url: String, edge: Int) -> String {
        guard let slash = url.lastIndex(of: "/") else { return url }
        let name = url[url.index(after: slash)...]
        let bytes = Array(name.utf8)
        // The last `<digits>x<digits>` in the file name.
        var end = bytes.count
        while end > 0 {
            guard let x = bytes[..<end].lastIndex(of: UInt8(ascii: "x")) else { return url }
            var before = x
            while before > 0, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[before - 1]) { before -= 1 }
            var after = x + 1
            while after < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[after]) { after += 1 }
            if before < x, after > x + 1 {
                let sized = bytes[..<before] + Array("\(edge)x\(edge)".utf8) + bytes[after...]
                return String(url[...slash]) + String(decoding: sized, as: UTF8.self)
            }
            end = x
        }
        return url
    }
}
