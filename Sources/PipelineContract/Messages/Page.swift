/// A fetched page of artworks, published by FetchWorker to `artpipe.pages`.
public struct Page: ArtpipeMessage, Equatable {
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

    public init(request: PageRequest, total: Int, artworks: [Artwork]) {
        self.v = Self.schemaVersion
        self.pageId = request.pageId
        self.crawlId = request.crawlId
        self.source = request.source
        self.query = request.query
        self.page = request.page
        self.total = total
        self.artworks = artworks
    }
}
