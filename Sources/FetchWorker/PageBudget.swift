import ArtpipeSupport
import Foundation
import PipelineContract

/// What of a source's page fits one `Page` message. A work with a field longer than any work's
/// field may be, and, when the page's works and deletions together pass what one message may
/// hold, the largest of them, become unreadable records (each one dead letter), so that a
/// hostile record never makes its page, or the cursor chain after it, fail.
struct PageBudget: Sendable {
    /// The most UTF-8 bytes one field of a work may have: a title, a name, an object number, an
    /// image URL, a record id or a datestamp; a longer detail (a date, a page, rights, a IIIF
    /// link) is left out (``withoutOverlongDetails(_:)``).
    static let maxFieldBytes = 16 << 10
    /// The most bytes a page's works and deletions may take, encoded: below Kafka's and
    /// librdkafka's default largest message (1,000,000 bytes), with room for the rest of the page.
    static let maxEntryBytes = 800_000
    /// The most Unicode scalars of a record id kept where the id only names a record (a page's
    /// list of unreadable records, a dead letter's header).
    static let maxNamingScalars = 1_024

    let maxEntryBytes: Int

    init(maxEntryBytes: Int = PageBudget.maxEntryBytes) {
        self.maxEntryBytes = maxEntryBytes
    }

    /// `page` with what does not fit moved to its unreadable records, in the order it came.
    func fit(_ page: SourcePage) -> SourcePage {
        var fitted = page
        var refused: [UnreadableRecord] = []
        fitted.artworks = page.artworks.map(Self.withoutOverlongDetails).filter { artwork in
            guard let (field, bytes) = Self.overlongField(of: artwork) else { return true }
            refused.append(
                Self.unreadable(
                    artwork,
                    "its \(field) is \(bytes) bytes, more than the \(Self.maxFieldBytes) a field of a work may have"))
            return false
        }
        fitted.deletions = page.deletions.filter { deletion in
            let bytes = max(deletion.recordId.utf8.count, deletion.datestamp.utf8.count)
            guard bytes > Self.maxFieldBytes else { return true }
            refused.append(
                UnreadableRecord(
                    recordId: deletion.recordId,
                    reason:
                        "its deletion names a field of \(bytes) bytes, more than the \(Self.maxFieldBytes) a field may have"
                ))
            return false
        }
        fitted.unreadable = (page.unreadable + refused).map(Self.named)
        // A bound first, from the fields' lengths: nearly every page is far below it and is not
        // encoded twice. Each entry is at most a few hundred KiB here: no sum can overflow.
        let staying =
            fitted.deletions.map { [$0.recordId, $0.datestamp] } + fitted.unreadable.map { [$0.recordId, $0.reason] }
        let bound =
            fitted.artworks.reduce(0) { $0 + Self.sizeBound(of: Self.fields(of: $1).map(\.1)) }
            + staying.reduce(0) { $0 + Self.sizeBound(of: $1) }
        guard bound > maxEntryBytes else { return fitted }
        // What cannot be left out (deletions, the list of unreadable records) leaves less room for works.
        let sizes = fitted.artworks.map { Self.encodedSize(of: $0) }
        let stayingBytes: Int =
            fitted.deletions.reduce(0) { $0 + Self.encodedSize(of: $1) }
            + fitted.unreadable.reduce(0) { $0 + Self.encodedSize(of: $1) }
        let total = sizes.reduce(stayingBytes, +)
        guard total > maxEntryBytes else { return fitted }
        // The largest works go first until the rest fit; of two as large, the earlier.
        let largest = sizes.indices.sorted { sizes[$0] > sizes[$1] || (sizes[$0] == sizes[$1] && $0 < $1) }
        var over = total - maxEntryBytes
        var left = Set<Int>()
        for index in largest where over > 0 {
            left.insert(index)
            over -= sizes[index]
            fitted.unreadable.append(
                Self.unreadable(
                    fitted.artworks[index],
                    "the page's entries together are \(total) bytes, more than one message may hold; its largest works are left out"
                ))
        }
        fitted.artworks = fitted.artworks.indices.filter { !left.contains($0) }.map { fitted.artworks[$0] }
        return fitted
    }

    /// `artwork` without any of its optional details (date, landing page, rights, IIIF links)
    /// longer than ``maxFieldBytes``: a work is kept without a detail it cannot carry.
    static func withoutOverlongDetails(_ artwork: Artwork) -> Artwork {
        var artwork = artwork
        let fits = { (text: String?) in (text?.utf8.count ?? 0) <= maxFieldBytes }
        if !fits(artwork.date) { (artwork.date, artwork.years) = (nil, nil) }
        if !fits(artwork.landingPage) { artwork.landingPage = nil }
        if !fits(artwork.rights) { artwork.rights = nil }
        if !fits(artwork.iiifManifest) { artwork.iiifManifest = nil }
        if !fits(artwork.iiifImageService) { artwork.iiifImageService = nil }
        return artwork
    }

    /// The first field of `artwork` longer than ``maxFieldBytes``, and its length.
    static func overlongField(of artwork: Artwork) -> (String, Int)? {
        for (name, value) in fields(of: artwork) {
            if let bytes = value?.utf8.count, bytes > maxFieldBytes { return (name, bytes) }
        }
        return nil
    }

    /// A work's text fields, by name.
    private static func fields(of artwork: Artwork) -> [(String, String?)] {
        [
            ("object number", artwork.objectNumber), ("title", artwork.title), ("artist", artwork.artist),
            ("image URL", artwork.imageURL), ("record id", artwork.recordId), ("datestamp", artwork.datestamp),
            ("date", artwork.date), ("landing page", artwork.landingPage), ("rights", artwork.rights),
            ("IIIF manifest", artwork.iiifManifest), ("IIIF image service", artwork.iiifImageService),
        ]
    }

    /// The most bytes an entry with these text fields takes encoded: each at most six times its
    /// bytes once escaped, and 512 for the keys, numbers and punctuation around them.
    private static func sizeBound(of fields: [String?]) -> Int {
        fields.reduce(512) { $0 + 6 * ($1?.utf8.count ?? 0) }
    }

    /// `record` with its id and reason cut to ``maxNamingScalars`` scalars each.
    static func named(_ record: UnreadableRecord) -> UnreadableRecord {
        var record = record
        record.recordId = record.recordId.prefix(scalars: maxNamingScalars)
        record.reason = record.reason.prefix(scalars: maxNamingScalars)
        return record
    }

    /// The bytes `value` takes in the message. Encoding what was decoded or built from
    /// strings does not fail; counted as large as its fields could be escaped if it ever did.
    private static func encodedSize(of value: some Encodable) -> Int {
        (try? JSONEncoder().encode(value).count) ?? 6 * 6 * maxFieldBytes
    }

    private static func unreadable(_ artwork: Artwork, _ reason: String) -> UnreadableRecord {
        named(
            UnreadableRecord(
                recordId: artwork.recordId ?? artwork.objectNumber, reason: reason,
                bytes: try? JSONEncoder().encode(artwork).map { $0 }))
    }
}
