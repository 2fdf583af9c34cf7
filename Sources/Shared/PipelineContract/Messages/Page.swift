/// A fetched page of artworks, published by FetchWorker to `artpipe.pages`.
package struct Page: PageMessage, Equatable {
    package static let schemaName = "page"

    package var v: Int
    package var pageId: String
    package var crawlId: String
    package var source: String
    package var query: [String: String]
    package var page: Int
    /// Objects the query matches in all, as the source reported.
    package var total: Int
    package var artworks: [Artwork]
    /// Records the source says were deleted (versioned sources only; absent otherwise).
    package var deletions: [RecordDeletion]?
    /// Records on the page that could not be read, with why (absent when there were none).
    package var unreadable: [UnreadableRecord]?

    package init(
        request: PageRequest, total: Int, artworks: [Artwork], deletions: [RecordDeletion]? = nil,
        unreadable: [UnreadableRecord]? = nil
    ) {
        self.deletions = deletions
        self.unreadable = unreadable
        self.v = Self.schemaVersion
        self.pageId = request.pageId
        self.crawlId = request.crawlId
        self.source = request.source
        self.query = request.query
        self.page = request.page
        self.total = total
        self.artworks = artworks
    }

    package var outOfRange: String? {
        if !(1...PageRequest.maxPage).contains(page) { return "page \(page) is outside 1–\(PageRequest.maxPage)" }
        if total < 0 { return "total \(total) is negative" }
        return nil
    }
}
