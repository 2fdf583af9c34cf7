import Foundation
import PipelineContract

/// Where a cursor-paged crawl stands, carried in `PageRequest.cursor`: the source's token for
/// the next page and the last page the crawl wants (OAI-PMH harvests carry an
/// ``OAIHarvestCursor`` instead). Opaque to everyone but the source.
struct PageCursor: Equatable {
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

    /// The token as a number (an offset, a range's first page), checked like page numbers:
    /// nil without a token, poison when it is not a number in `range`.
    func tokenNumber(in range: ClosedRange<Int>, what: String) throws -> Int? {
        guard let token else { return nil }
        guard let number = Int(token), range.contains(number) else {
            throw SourceFormatError(
                "cursor: \(what) '\(token.prefix(40))' is not a number in \(range.lowerBound)…\(range.upperBound)")
        }
        return number
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
