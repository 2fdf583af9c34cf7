/// What the owner of one page partition says of its pages, for the manifest's crawls and totals.
package struct PagesSummary: Codable, Sendable, Equatable {
    /// One crawl's pages in this partition.
    package struct Crawl: Codable, Sendable, Equatable {
        package var crawlId: String
        package var source: String
        package var query: [String: String]
        /// Where `source` and `query` were read from, as it sorts: the lowest fetched page id, as a
        /// whole build reads them; a crawl known only by failures sorts after every fetched one.
        package var firstPageId: String
        package var total: Int
        package var pagesIndexed: [Int]
        package var failedPages: [ArtistIndex.FailedPage]
    }

    package var partition: Int
    package var pages: Int
    package var failedPages: Int
    package var crawls: [Crawl]

    /// The summary of a partition's page entries: a page fetched counts as indexed, one known
    /// only by its failure as failed.
    package init(partition: Int, entries: some Sequence<PageEntry>) {
        self.partition = partition
        var crawls: [String: Crawl] = [:]
        var (pages, failed) = (0, 0)
        // Fetched pages first, each crawl's lowest page id first.
        for entry in entries.filter({ $0.fetched || $0.failure != nil }).sorted(by: {
            ($0.failure == nil ? 0 : 1, $0.pageId) < ($1.failure == nil ? 0 : 1, $1.pageId)
        }) {
            var crawl =
                crawls[entry.crawlId]
                ?? Crawl(
                    crawlId: entry.crawlId, source: entry.source, query: entry.query,
                    firstPageId: (entry.failure == nil ? "0" : "1") + entry.pageId, total: 0, pagesIndexed: [],
                    failedPages: [])
            if let failure = entry.failure {
                failed += 1
                crawl.failedPages.append(ArtistIndex.FailedPage(page: entry.page, reason: failure))
            } else {
                pages += 1
                crawl.pagesIndexed.append(entry.page)
                crawl.total = max(crawl.total, entry.total)
            }
            crawls[entry.crawlId] = crawl
        }
        (self.pages, self.failedPages) = (pages, failed)
        self.crawls = crawls.values.sorted { $0.crawlId < $1.crawlId }
    }
}
