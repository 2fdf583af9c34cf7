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
        (pageId, crawlId, source, query, page, total, failure, fetched) = (
            entry.pageId, entry.crawlId, entry.source, entry.query, entry.page, entry.total, entry.failure,
            entry.fetched
        )
    }
}
