import PipelineContract

/// One row of `artpipe.index-works`: what one page says of a work, or the thumbnails that page
/// has for it. Keyed by ``key``: the work and the page, so that the one writer of a key is the
/// pages stage's task of that page (docs/architecture.md, "The index's rules of construction");
/// a tombstone (no value) takes a row back.
package enum WorkRow: Codable, Sendable, Equatable {
    /// A version of the work (or, for sources without record ids, a listing) on a page; for a
    /// versioned source, a deletion instead of an artwork.
    case version(WorkVersion)
    /// The best of what ThumbWorker made, for the page, of the work's image `imageURL`: a row per
    /// work, page and image.
    case pageThumbnails(pageId: String, imageURL: String, item: PageThumbnails.Item)
    /// What ThumbWorker made of one image URL of the work, keyed by that URL: written by 0.7,
    /// whose works stage wrote it too. Still read, never written.
    case thumbnails(imageURL: String, item: PageThumbnails.Item)

    /// The row's key: the work's, then `p` and the page id; `i`, the page id and the image URL;
    /// or (0.7's rows) `t` and the image URL.
    package func key(of work: WorkKey) -> String {
        switch self {
        case .version(let version): Self.versionKey(of: work, page: version.pageId)
        case .pageThumbnails(let pageId, let imageURL, _):
            Self.thumbnailsKey(of: work, page: pageId, imageURL: imageURL)
        case .thumbnails(let imageURL, _): "\(work)\u{1F}t\u{1F}\(imageURL)"
        }
    }

    package static func versionKey(of work: WorkKey, page pageId: String) -> String {
        "\(work)\u{1F}p\u{1F}\(pageId)"
    }

    package static func thumbnailsKey(of work: WorkKey, page pageId: String, imageURL: String) -> String {
        "\(work)\u{1F}i\u{1F}\(pageId)\u{1F}\(imageURL)"
    }

    /// A work's thumbnails of one image, as ``WorkKey`` text and URL: what one row of a page's
    /// thumbnails is about.
    struct ThumbnailsKey: Hashable, Comparable {
        var work: String
        var imageURL: String

        static func < (a: ThumbnailsKey, b: ThumbnailsKey) -> Bool { (a.work, a.imageURL) < (b.work, b.imageURL) }
    }
}

/// A work as one page holds it.
package struct WorkVersion: Codable, Sendable, Equatable {
    package var pageId: String
    package var crawlId: String
    package var page: Int
    /// Nil for a deletion.
    package var artwork: Artwork?
    package var deletion: RecordDeletion?

    package init(pageId: String, crawlId: String, page: Int, artwork: Artwork?, deletion: RecordDeletion? = nil) {
        (self.pageId, self.crawlId, self.page, self.artwork, self.deletion) =
            (pageId, crawlId, page, artwork, deletion)
    }

    /// Where it sorts among one record's versions (``RecordVersions/Version``'s rule).
    var recordVersion: RecordVersions.Version {
        RecordVersions.Version(
            datestamp: artwork?.datestamp ?? deletion?.datestamp ?? "", deletion: artwork == nil, pageId: pageId,
            artwork: artwork, page: nil)
    }
}
