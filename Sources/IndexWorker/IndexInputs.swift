import PipelineContract

/// What the index is made from: the latest `Page` and `PageThumbnails` of each page id, and
/// the page requests that went to the dead letters. Adding a message twice, or out of
/// order with another page's, changes nothing: the index is a function of this state only.
public struct IndexInputs: Sendable, Codable, Equatable {
    public private(set) var pages: [String: Page] = [:]
    public private(set) var thumbnails: [String: PageThumbnails] = [:]
    public private(set) var failedPages: [String: FailedPage] = [:]

    /// A page request FetchWorker gave up on.
    public struct FailedPage: Sendable, Codable, Equatable {
        public let request: PageRequest
        public let reason: String
    }

    public init() {}

    public mutating func add(_ page: Page) { pages[page.pageId] = page }
    public mutating func add(_ pageThumbnails: PageThumbnails) { thumbnails[pageThumbnails.pageId] = pageThumbnails }
    /// Adds another shard's inputs; shards hold different page ids, so nothing is overwritten.
    public mutating func merge(_ other: IndexInputs) {
        pages.merge(other.pages) { current, _ in current }
        thumbnails.merge(other.thumbnails) { current, _ in current }
        failedPages.merge(other.failedPages) { current, _ in current }
    }

    public mutating func addFailure(_ request: PageRequest, reason: String) {
        failedPages[request.pageId] = FailedPage(request: request, reason: reason)
    }
}
