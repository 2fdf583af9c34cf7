import ArtpipeSupport
import PipelineContract

/// Every row of one work in `artpipe.index-works`, and what they come to: the version shown,
/// its thumbnails, and the rows to write back so that the topic, read again from the start,
/// gives this same state (it is the works stage's changelog; docs/architecture.md).
///
/// The rules, a pure function of the rows whatever their order:
/// - a versioned work (a record) shows its newest version (``RecordVersions``); a deletion at
///   least as new shows nothing. It leaves only through a deletion: a page that comes to hold
///   other records takes no version back. Versions the newest supersedes are tombstoned.
/// - a work without record ids shows its listing on the lowest page (then the lowest page id),
///   and leaves when no page lists it.
/// - thumbnails join by image URL: the shown version's image's, so a result made for another
///   version's image never stands for it; for one image, `ok` beats `failed` beats `noImage`
///   in any order, and the better result is written back when a worse one comes after it.
///
/// A work has one or two versions and thumbnails of one or two images: they are kept in small
/// arrays sorted by page id and image URL, not dictionaries (a dictionary of one entry cost
/// about 500 bytes a work, heaptrack at 100,000 works; the arrays' order keeps `==` a
/// comparison of contents).
package struct WorkRows: Sendable, Equatable {
    package let work: WorkKey
    /// By page id, ascending.
    package private(set) var versions: [WorkVersion] = []
    /// By image URL, ascending.
    private(set) var images: [ImageThumbnails] = []

    /// The thumbnails made of one image.
    struct ImageThumbnails: Codable, Sendable, Equatable {
        var imageURL: String
        var item: PageThumbnails.Item
    }

    package init(work: WorkKey) {
        self.work = work
    }

    /// Rows as ``versions`` and ``images`` held them, sorted as they keep them.
    init(work: WorkKey, versions: [WorkVersion], images: [ImageThumbnails]) {
        (self.work, self.versions, self.images) = (work, versions, images)
    }

    /// A row to write to `artpipe.index-works`: `row` nil is a tombstone of `key`.
    package struct WriteBack: Sendable, Equatable {
        package var key: String
        package var row: WorkRow?
    }

    /// No row left: the work's state can go.
    package var isEmpty: Bool { versions.isEmpty && images.isEmpty }

    /// Applies a row read from the topic, `row` nil for a tombstone of `key`. Returns the rows
    /// to write back: tombstones of versions now superseded, and the better thumbnails again.
    package mutating func apply(key: String, row: WorkRow?) -> [WriteBack] {
        guard let row else {
            remove(key: key)
            return []
        }
        switch row {
        case .version(let version):
            let index = versions.partitioningIndex { $0.pageId >= version.pageId }
            if index < versions.count, versions[index].pageId == version.pageId {
                versions[index] = version
            } else {
                versions.insert(version, at: index)
            }
            return supersede()
        case .thumbnails(let imageURL, let item):
            let index = images.partitioningIndex { $0.imageURL >= imageURL }
            guard index < images.count, images[index].imageURL == imageURL else {
                images.insert(ImageThumbnails(imageURL: imageURL, item: item), at: index)
                return []
            }
            let kept = images[index].item
            if Self.rank(item).lexicographicallyPrecedes(Self.rank(kept)) {
                let better = WorkRow.thumbnails(imageURL: imageURL, item: kept)
                return [WriteBack(key: better.key(of: work), row: better)]
            }
            images[index].item = item
            return []
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

    /// The thumbnails of the shown version's image; nil while none arrived (pending) or it has no image.
    package var shownThumbnails: PageThumbnails.Item? {
        guard let imageURL = shown?.artwork?.imageURL else { return nil }
        return images.first { $0.imageURL == imageURL }?.item
    }

    /// The work line the index shows, if any.
    package var indexed: ArtistIndex.Work? {
        guard let shown, let artwork = shown.artwork else { return nil }
        let item = shownThumbnails
        return ArtistIndex.Work(
            objectNumber: artwork.objectNumber, title: artwork.title, pageId: shown.pageId, page: shown.page,
            imageURL: artwork.imageURL,
            thumbnailStatus: artwork.imageURL == nil ? "noImage" : item?.status.rawValue ?? "pending",
            thumbnailReason: item?.status == .failed ? item?.reason : nil,
            thumbnails: Dictionary(
                (item?.status == .ok ? item?.files ?? [] : []).map { (String($0.size), $0.path) },
                uniquingKeysWith: { first, _ in first }),
            recordId: artwork.recordId, datestamp: artwork.datestamp)
    }

    /// For a record, every version but the winner goes. Thumbnails stay, whichever image they
    /// are of: a newer version may show an older image again, and taking them back would make
    /// the state depend on the order rows came in (a work keeps one row per image it ever had).
    private mutating func supersede() -> [WriteBack] {
        guard work.isRecord, let winner, versions.count > 1 else { return [] }
        let writes = versions.filter { $0.pageId != winner.pageId }.map {
            WriteBack(key: WorkRow.versionKey(of: work, page: $0.pageId), row: nil)
        }
        versions.removeAll { $0.pageId != winner.pageId }
        return writes.sorted { $0.key < $1.key }
    }

    private mutating func remove(key: String) {
        let prefix = "\(work)\u{1F}"
        guard key.hasPrefix(prefix) else { return }
        let rest = key.dropFirst(prefix.count)
        if rest.hasPrefix("p\u{1F}") {
            let pageId = rest.dropFirst(2)
            versions.removeAll { $0.pageId == pageId }
        } else if rest.hasPrefix("t\u{1F}") {
            let imageURL = rest.dropFirst(2)
            images.removeAll { $0.imageURL == imageURL }
        }
    }

    /// `ok` over `failed` over `noImage`; within one status, a total order on the item's fields,
    /// so two results for one image resolve the same way in any order.
    static func rank(_ item: PageThumbnails.Item) -> [String] {
        let status: String =
            switch item.status {
            case .ok: "2"
            case .failed: "1"
            case .noImage: "0"
            }
        return [
            status, item.files.map { "\($0.size) \($0.path) \($0.sha256)" }.joined(separator: "\n"), item.reason ?? "",
            item.recordId ?? "",
        ]
    }
}
