import Foundation

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

    init(_ text: String?) {
        let items = URLComponents(string: "?" + (text ?? ""))?.queryItems ?? []
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        token = value("pageToken")
        previous = value("previous")
        lastPage = value("last").flatMap(Int.init) ?? Int.max
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
