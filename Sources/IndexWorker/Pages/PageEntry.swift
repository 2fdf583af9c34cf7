import PipelineContract

/// The pages stage's state for one page id, its row in `artpipe.index-pages`: what the index
/// needs of the page once its messages are gone (dead letters expire) and what the next
/// version of the page is compared with.
package struct PageEntry: Codable, Sendable, Equatable {
    package var pageId: String
    package var crawlId: String
    package var source: String
    package var query: [String: String]
    package var page: Int
    /// Objects the query matched, as the page said; 0 for a page known only by its failure.
    package var total: Int
    /// The works the page lists, as ``WorkKey`` texts, by object number (for thumbnails that
    /// name only the object number); a failed page lists none.
    package var works: [String: String]
    /// The image URL of each work the page lists, by object number, where it has one.
    package var images: [String: String]
    /// The works of the page's artworks that have a record id, as ``WorkKey`` texts, by record
    /// id (for thumbnails that name their record); nil when it has none.
    package var records: [String: String]?
    /// Why the page's request was given up on, when it was and no page came since.
    package var failure: String?
    /// Whether the page itself was read (not only its failure, or its thumbnails).
    package var fetched: Bool
    /// The page's latest thumbnails, kept for the page's next version, and for a page whose
    /// thumbnails were read before it (the two topics are read side by side, in no order).
    package var thumbnails: PageThumbnails?
    /// The keys of `artpipe.index-works` the page's changes took back that may not have reached
    /// the topic yet: the change that made the entry's own, and, where the change before it was
    /// not known acknowledged when it was made, that one's too (``PagePartition``); nil when none.
    /// The entry reaches the changelog before the rows: after a crash between the two, the page
    /// handled again takes them back again from here.
    package var retracted: [String]?

    /// The entry of a fetched page.
    package init(_ page: Page) {
        (pageId, crawlId, source, query, self.page, total) =
            (page.pageId, page.crawlId, page.source, page.query, page.page, page.total)
        works = [:]
        images = [:]
        var records: [String: String] = [:]
        for artwork in page.artworks {
            let work = WorkKey(source: page.workSource, artwork: artwork)
            if let recordId = artwork.recordId, records[recordId] == nil { records[recordId] = work.description }
            guard works[artwork.objectNumber] == nil else { continue }
            works[artwork.objectNumber] = work.description
            images[artwork.objectNumber] = artwork.imageURL
        }
        self.records = records.isEmpty ? nil : records
        failure = nil
        fetched = true
    }

    /// The entry of a page whose request went to the dead letters.
    package init(failed request: PageRequest, reason: String) {
        (pageId, crawlId, source, query, page, total) =
            (request.pageId, request.crawlId, request.source, request.query, request.page, 0)
        works = [:]
        images = [:]
        failure = reason
        fetched = false
    }

    /// The entry of a page known so far only by its thumbnails.
    package init(waitingFor pageId: String) {
        (self.pageId, crawlId, source, query, page, total) = (pageId, "", "", [:], 0, 0)
        (works, images, failure, fetched) = ([:], [:], nil, false)
    }
}
