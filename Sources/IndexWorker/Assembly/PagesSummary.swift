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

        /// One page's part: indexed, or known only by why its request failed.
        init(
            crawlId: String, source: String, query: [String: String], pageId: String, page: Int, total: Int,
            failure: String?
        ) {
            (self.crawlId, self.source, self.query) = (crawlId, source, query)
            firstPageId = (failure == nil ? "0" : "1") + pageId
            self.total = failure == nil ? total : 0
            pagesIndexed = failure == nil ? [page] : []
            failedPages = failure.map { [ArtistIndex.FailedPage(page: page, reason: $0)] } ?? []
        }

        /// Parts merged into one per crawl: source and query from the part of the lowest
        /// ``firstPageId`` (the first of equals), the largest total, every page in the parts' order.
        /// In one pass: merged a part at a time, each page's part copied every page before it.
        static func merging(_ parts: [Crawl]) -> [Crawl] {
            Dictionary(grouping: parts, by: \.crawlId).values.map { group in
                var merged = group.min { $0.firstPageId < $1.firstPageId } ?? group[0]
                merged.total = group.map(\.total).max() ?? merged.total
                merged.pagesIndexed = group.flatMap(\.pagesIndexed)
                merged.failedPages = group.flatMap(\.failedPages)
                return merged
            }
            .sorted { $0.crawlId < $1.crawlId }
        }
    }

    package var partition: Int
    package var pages: Int
    package var failedPages: Int
    package var crawls: [Crawl]
    /// The end offsets of `artpipe.index-works`, by partition, read after every row of these
    /// pages was acknowledged: the works stage has taken them in once it has read that far.
    /// Nil where not known (the shared files then wait for a summary that says).
    package var worksEnd: [Int64]?

    /// The summary without ``worksEnd``: what changes only when its pages do.
    var pagesOnly: PagesSummary {
        var summary = self
        summary.worksEnd = nil
        return summary
    }

    /// The summary of a partition's pages: a page fetched counts as indexed, one known only by
    /// its failure as failed, one known only by its thumbnails not at all.
    package init(partition: Int, outlines: some Sequence<PageOutline>) {
        self.partition = partition
        // By page id: the same pages give the same summary, however they were kept.
        let known = outlines.filter { $0.fetched || $0.failure != nil }.sorted { $0.pageId < $1.pageId }
        pages = known.filter(\.fetched).count
        failedPages = known.count - pages
        crawls = Crawl.merging(
            known.map {
                Crawl(
                    crawlId: $0.crawlId, source: $0.source, query: $0.query, pageId: $0.pageId, page: $0.page,
                    total: $0.total, failure: $0.failure)
            })
    }
}
