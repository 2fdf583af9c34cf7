import PipelineContract

/// What the live index holds of each work and listing: numbers that say where in the inputs it
/// is, not copies of it.
extension LiveArtistIndex {
    /// Where an unversioned work is listed: the lowest page (then page id) holds it.
    struct Listing: Sendable {
        var page: Int32
        var slot: Int32
        var position: Int32
    }

    /// Where a version of a record is: a position among the page's artworks, or past them, its deletions.
    struct VersionAt: Sendable {
        var slot: Int32
        var position: Int32
    }

    /// A record: where its versions are, and which of them is its work when the newest is not a
    /// deletion. The work's object number and datestamp are read from its page when needed.
    struct RecordState: Sendable {
        var versions: OneOrMore<VersionAt>?
        var live: VersionAt?
    }

    /// A work in the index: the artwork at `position` of the page in `slot`, with the item at
    /// `item` of that page's thumbnails (-1: none yet).
    struct Entry: Sendable, Equatable {
        var objectNumber: String
        var slot: Int32
        var position: Int32
        var item: Int32
        var status: Status
    }

    enum Status: UInt8, Sendable, CaseIterable {
        case ok, noImage, failed, pending

        init(_ status: PageThumbnails.Item.Status) {
            switch status {
            case .ok: self = .ok
            case .noImage: self = .noImage
            case .failed: self = .failed
            }
        }

        /// As ``ArtistIndex/Work/thumbnailStatus`` says it.
        var name: String {
            switch self {
            case .ok: "ok"
            case .noImage: "noImage"
            case .failed: "failed"
            case .pending: "pending"
            }
        }
    }
}
