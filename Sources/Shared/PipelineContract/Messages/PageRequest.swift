/// A page to fetch: published by `artpipe crawl`, and by FetchWorker itself for cursor-paged sources.
package struct PageRequest: PageMessage, Equatable {
    package static let schemaName = "page-request"

    package var v: Int
    package var pageId: String
    /// Which crawl asked for it; pages of one crawl share it.
    package var crawlId: String
    package var source: String
    /// The collection query, without the API key.
    package var query: [String: String]
    /// 1-based.
    package var page: Int
    package var pageSize: Int
    /// The source's opaque position, for cursor-paged sources.
    package var cursor: String?

    package init(
        crawlId: String, source: String, query: [String: String], page: Int, pageSize: Int, cursor: String? = nil
    ) {
        self.v = Self.schemaVersion
        self.pageId = PageID.make(source: source, query: query, page: page)
        self.crawlId = crawlId
        self.source = source
        self.query = query
        self.page = page
        self.pageSize = pageSize
        self.cursor = cursor
    }

    /// The largest page number a request may carry: far beyond any source's reach (the legacy
    /// API's 10,000 objects, OAI-PMH's ~4,200 pages of the whole collection).
    package static let maxPage = 100_000
    /// The largest page size a request may carry.
    package static let maxPageSize = 1_000

    package var outOfRange: String? {
        if !(1...Self.maxPage).contains(page) { return "page \(page) is outside 1–\(Self.maxPage)" }
        if !(1...Self.maxPageSize).contains(pageSize) {
            return "pageSize \(pageSize) is outside 1–\(Self.maxPageSize)"
        }
        return nil
    }
}
