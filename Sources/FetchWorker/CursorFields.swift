import Foundation
import PipelineContract

/// The fields a cursor is written with in `PageRequest.cursor`, as a form query: `last` (the
/// last page the crawl wants), `pageToken` and `previous`. What the token means is each
/// source's own, read and checked by its typed cursor (``SearchPageCursor``, ``ITunesCursor``,
/// ``FlickrRangeCursor``; OAI-PMH harvests carry an ``OAIHarvestCursor``). Opaque to everyone
/// but the source.
struct CursorFields: Equatable {
    var token: String?
    var lastPage: Int
    /// The token of the page before, to notice a server that sends a crawl round in a loop.
    var previous: String?

    init(token: String?, lastPage: Int, previous: String? = nil) {
        self.token = token
        self.previous = previous
        self.lastPage = lastPage
    }

    /// Reads a cursor; a last page that is not a page number is poison.
    init(_ text: String?) throws {
        let items = URLComponents(string: "?" + (text ?? ""))?.queryItems ?? []
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        token = value("pageToken")
        previous = value("previous")
        if let last = value("last") {
            guard let page = Int(last), (1...PageRequest.maxPage).contains(page) else {
                throw SourceFormatError("cursor: last=\(last) is not a page in 1…\(PageRequest.maxPage)")
            }
            lastPage = page
        } else {
            lastPage = Int.max
        }
    }

    var text: String {
        var items: [URLQueryItem] = []
        if lastPage != Int.max { items.append(URLQueryItem(name: "last", value: String(lastPage))) }
        if let token { items.append(URLQueryItem(name: "pageToken", value: token)) }
        if let previous { items.append(URLQueryItem(name: "previous", value: previous)) }
        var components = URLComponents()
        components.setFormQuery(items)
        return components.percentEncodedQuery ?? ""
    }
}
