/// A fetched page of artworks, published by FetchWorker to `artpipe.pages`.
public struct Page: PageMessage, Equatable {
    public static let schemaName = "page"

    public var v: Int
    public var pageId: String
    public var crawlId: String
    public var source: String
    public var query: [String: String]
    public var page: Int
    /// Objects the query matches in all, as the source reported.
    public var total: Int
    public var artworks: [Artwork]
    /// Records the source says were deleted (versioned sources only; absent otherwise).
    public var deletions: [RecordDeletion]?
    /// Records on the page that could not be read, with why (absent when there were none).
    public var unreadable: [UnreadableRecord]?

    public init(
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

    public var outOfRange: String? {
        if !(1...PageRequest.maxPage).contains(page) { return "page \(page) is outside 1–\(PageRequest.maxPage)" }
        if total < 0 { return "total \(total) is negative" }
        return nil
    }
}
