import ArtpipeSupport
import PipelineContract

/// Every row of one work in `artpipe.index-works`, and what they come to: the version shown and
/// its thumbnails. The works stage writes nothing back to the topic: each key is written by the
/// pages stage's task of its page alone (docs/architecture.md, "The index's rules of
/// construction", rules 1 and 2).
///
/// The state is a function of the rows as the topic holds them now, the last row of each key:
/// the same in any order of keys, and the same when restored from the compacted topic.
/// - a versioned work (a record) shows its newest version (``RecordVersions``); a deletion at
///   least as new shows nothing. It leaves only through a deletion: a page that comes to hold
///   other records takes no version back (the pages stage never takes a record's version back).
/// - a work without record ids shows its listing on the lowest page (then the lowest page id),
///   and leaves when no page lists it.
/// - thumbnails join by image URL: the shown version's image's, so a result made for another
///   version's image never stands for it; for one image, of every page's result the best
///   (``rank(_:)``: `ok` over `failed` over `noImage`).
///
/// A work has a row or two of each kind (one a page it was listed on, and an image each): they
/// are kept in small arrays sorted by their keys, not dictionaries (a dictionary of one entry
/// cost about 500 bytes a work, heaptrack at 100,000 works, in 0.7; the arrays' order keeps `==`
/// a comparison of contents).
package struct WorkRows: Sendable, Equatable {
    package let work: WorkKey
    /// By page id, ascending.
    package private(set) var versions: [WorkVersion] = []
    /// Each page's thumbnails of the work, by page id and image URL, ascending.
    private(set) var pageImages: [PageImage] = []
    /// 0.7's rows by image URL, ascending.
    private(set) var images: [ImageThumbnails] = []

    /// The thumbnails a page has of one image of the work.
    struct PageImage: Sendable, Equatable {
        var pageId: String
        var imageURL: String
        var item: PageThumbnails.Item
    }

    /// The thumbnails made of one image (0.7's rows).
    struct ImageThumbnails: Codable, Sendable, Equatable {
        var imageURL: String
        var item: PageThumbnails.Item
    }

    package init(work: WorkKey) {
        self.work = work
    }

    /// Rows as ``versions``, ``pageImages`` and ``images`` held them, sorted as they keep them.
    init(work: WorkKey, versions: [WorkVersion], pageImages: [PageImage], images: [ImageThumbnails]) {
        (self.work, self.versions, self.pageImages, self.images) = (work, versions, pageImages, images)
    }

    /// No row left: the work's state can go.
    package var isEmpty: Bool { versions.isEmpty && pageImages.isEmpty && images.isEmpty }

    /// Applies a row read from the topic, `row` nil for a tombstone of `key`: the row under its
    /// key is now `row`.
    package mutating func apply(key: String, row: WorkRow?) {
        guard let row else {
            remove(key: key)
            return
        }
        switch row {
        case .version(let version):
            let index = versions.partitioningIndex { $0.pageId >= version.pageId }
            if index < versions.count, versions[index].pageId == version.pageId {
                versions[index] = version
            } else {
                versions.insert(version, at: index)
            }
        case .pageThumbnails(let pageId, let imageURL, let item):
            let kept = PageImage(pageId: pageId, imageURL: imageURL, item: item)
            let index = pageImages.partitioningIndex { ($0.pageId, $0.imageURL) >= (pageId, imageURL) }
            if index < pageImages.count, pageImages[index].pageId == pageId, pageImages[index].imageURL == imageURL {
                pageImages[index] = kept
            } else {
                pageImages.insert(kept, at: index)
            }
        case .thumbnails(let imageURL, let item):
            let index = images.partitioningIndex { $0.imageURL >= imageURL }
            if index < images.count, images[index].imageURL == imageURL {
                images[index].item = item
            } else {
                images.insert(ImageThumbnails(imageURL: imageURL, item: item), at: index)
            }
        }
    }

    /// The version shown, if any: nil when there is none, or a deletion wins.
    package var shown: WorkVersion? {
        guard let winner else { return nil }
        return winner.artwork == nil ? nil : winner
    }

    /// The version that wins, a deletion included.
    var winner: WorkVersion? {
        if work.isRecord {
            return versions.max { $1.recordVersion.isNewer(than: $0.recordVersion) }
        }
        return versions.min { ($0.page, $0.pageId) < ($1.page, $1.pageId) }
    }

    /// The thumbnails of the shown version's image: the best any page has of it; nil while none
    /// arrived (pending) or it has no image.
    package var shownThumbnails: PageThumbnails.Item? {
        guard let imageURL = shown?.artwork?.imageURL else { return nil }
        let made =
            pageImages.filter { $0.imageURL == imageURL }.map(\.item)
            + images.filter { $0.imageURL == imageURL }.map(\.item)
        return made.max { Self.rank($0).lexicographicallyPrecedes(Self.rank($1)) }
    }

    /// The work line the index shows, if any.
    package var indexed: ArtistIndex.Work? {
        guard let shown, let artwork = shown.artwork else { return nil }
        let item = shownThumbnails
        let paths = ArtistIndex.Work.paths(
            of: (item?.status == .ok ? item?.files ?? [] : []).map { ($0.size, $0.path) })
        return ArtistIndex.Work(
            objectNumber: artwork.objectNumber, title: artwork.title, pageId: shown.pageId, page: shown.page,
            imageURL: artwork.imageURL,
            thumbnailStatus: artwork.imageURL == nil ? "noImage" : item?.status.rawValue ?? "pending",
            thumbnailReason: item?.status == .failed ? item?.reason : nil,
            thumbnails: paths.thumbnails, recordId: artwork.recordId, datestamp: artwork.datestamp,
            colour: item?.status == .ok ? ArtistIndex.Work.placeholder(item?.colour) : nil, webpThumbnails: paths.webp
        )
        .described(by: artwork)
    }

    /// Takes back the row under `key`: compared whole with each row's key, so no key is parsed.
    private mutating func remove(key: String) {
        versions.removeAll { WorkRow.versionKey(of: work, page: $0.pageId) == key }
        pageImages.removeAll { WorkRow.thumbnailsKey(of: work, page: $0.pageId, imageURL: $0.imageURL) == key }
        images.removeAll { WorkRow.thumbnails(imageURL: $0.imageURL, item: $0.item).key(of: work) == key }
    }

    /// `ok` over `failed` over `noImage`.
    static func statusRank(_ status: PageThumbnails.Item.Status) -> Int {
        switch status {
        case .ok: 2
        case .failed: 1
        case .noImage: 0
        }
    }

    /// `ok` over `failed` over `noImage`; within one status, a total order on the item's fields,
    /// so two results for one image resolve the same way in any order.
    static func rank(_ item: PageThumbnails.Item) -> [String] {
        [
            String(statusRank(item.status)),
            item.files.map { "\($0.size) \($0.path) \($0.sha256)" }.joined(separator: "\n"), item.reason ?? "",
            item.recordId ?? "", item.colour ?? "",
        ]
    }
}
