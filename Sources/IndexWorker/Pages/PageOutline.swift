/// What a partition's summary needs of one page, kept in memory while the page's entry (its
/// works, images and thumbnails) is in a ``PageEntryTable``: a few dozen bytes a page, not a
/// few hundred a work.
package struct PageOutline: Sendable, Equatable {
    var pageId: String
    var crawlId: String
    var source: String
    var query: [String: String]
    var page: Int
    var total: Int
    var failure: String?
    var fetched: Bool

    init(_ entry: PageEntry) {
        self.init(
            pageId: entry.pageId, crawlId: entry.crawlId, source: entry.source, query: entry.query, page: entry.page,
            total: entry.total, failure: entry.failure, fetched: entry.fetched)
    }

    init(
        pageId: String, crawlId: String, source: String, query: [String: String], page: Int, total: Int,
        failure: String?, fetched: Bool
    ) {
        (self.pageId, self.crawlId, self.source, self.query) = (pageId, crawlId, source, query)
        (self.page, self.total, self.failure, self.fetched) = (page, total, failure, fetched)
    }
}
