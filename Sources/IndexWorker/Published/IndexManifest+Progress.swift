extension IndexManifest {
    /// How far one crawl has got in this index.
    package struct Progress: Sendable, Equatable {
        package var pagesIndexed: Int
        package var pagesFailed: Int
        package var works: Int
        /// Works whose thumbnails have not arrived.
        package var pendingThumbnails: Int

        /// Every one of `expectedPages` is indexed or failed, and no thumbnail is pending.
        package func isComplete(expectedPages: Int) -> Bool {
            pagesIndexed + pagesFailed >= expectedPages && pendingThumbnails == 0
        }
    }

    /// The progress of `crawlId` (all crawls when nil).
    package func progress(crawlId: String?) -> Progress {
        let selected = crawls.filter { crawlId == nil || $0.crawlId == crawlId }
        return Progress(
            pagesIndexed: selected.map(\.pagesIndexed.count).reduce(0, +),
            pagesFailed: selected.map(\.failedPages.count).reduce(0, +), works: totals.works,
            pendingThumbnails: totals.thumbnails["pending", default: 0])
    }
}
