/// Where a Search API crawl stands: the service's opaque `pageToken` for the next page.
struct SearchPageCursor: Equatable {
    /// The service's token; nil for the first page.
    var pageToken: String?
    var lastPage: Int
    /// The token of the page before, to notice a service that sends a crawl round in a loop.
    var previous: String?

    init(pageToken: String?, lastPage: Int, previous: String? = nil) {
        self.pageToken = pageToken
        self.lastPage = lastPage
        self.previous = previous
    }

    /// Reads a cursor; the token is the service's text, only `last` is checked.
    init(_ text: String?) throws {
        let fields = try CursorFields(text)
        self.init(pageToken: fields.token, lastPage: fields.lastPage, previous: fields.previous)
    }

    var text: String { CursorFields(token: pageToken, lastPage: lastPage, previous: previous).text }
}
