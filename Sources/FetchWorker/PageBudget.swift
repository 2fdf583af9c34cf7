import Foundation
import PipelineContract

/// What of a source's page fits one `Page` message. A work with a field longer than any work's
/// field may be, and, when the page's works and deletions together pass what one message may
/// hold, the largest of them, become unreadable records (each one dead letter), so that a
/// hostile record never makes its page, or the cursor chain after it, fail.
struct PageBudget: Sendable {
    /// The most UTF-8 bytes one field of a work may have: a title, a name, an object number, a
    /// URL, a record id or a datestamp.
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
        // Refused for a field too long, and left out for the room their page has.
        var (refused, crowded): ([UnreadableRecord], [UnreadableRecord]) = ([], [])
        var works: [(artwork: Artwork, bytes: Int)] = []
        for artwork in page.artworks {
            if let (field, bytes) = Self.overlongField(of: artwork) {
                refused.append(
                    Self.unreadable(
                        artwork,
                        "its \(field) is \(bytes) bytes, more than the \(Self.maxFieldBytes) a field of a work may have"
                    ))
            } else {
                works.append((artwork, Self.encodedSize(of: artwork)))
            }
        }
        var deletions: [(deletion: RecordDeletion, bytes: Int)] = []
        for deletion in page.deletions {
            let bytes = max(deletion.recordId.utf8.count, deletion.datestamp.utf8.count)
            if bytes > Self.maxFieldBytes {
                refused.append(
                    UnreadableRecord(
                        recordId: Self.naming(deletion.recordId),
                        reason:
                            "its deletion names a field of \(bytes) bytes, more than the \(Self.maxFieldBytes) a field may have"
                    ))
            } else {
                deletions.append((deletion, Self.encodedSize(of: deletion)))
            }
        }
        let unreadable = (page.unreadable + refused).map(Self.named)
        // Each entry is at most a few hundred KiB here: the sum cannot overflow. What cannot
        // be left out (deletions, the list of unreadable records) leaves less room for works.
        let workBytes: Int = works.reduce(0) { $0 + $1.bytes }
        let deletionBytes: Int = deletions.reduce(0) { $0 + $1.bytes }
        let unreadableBytes: Int = unreadable.reduce(0) { $0 + Self.encodedSize(of: $1) }
        let total = workBytes + deletionBytes + unreadableBytes
        if total > maxEntryBytes {
            // The largest works go first until the rest fit.
            let largest = works.indices.sorted {
                works[$0].bytes > works[$1].bytes || (works[$0].bytes == works[$1].bytes && $0 < $1)
            }
            var over = total - maxEntryBytes
            var left = Set<Int>()
            for index in largest where over > 0 {
                left.insert(index)
                over -= works[index].bytes
                crowded.append(
                    Self.unreadable(
                        works[index].artwork,
                        "the page's entries together are \(total) bytes, more than one message may hold; its largest works are left out"
                    ))
            }
            works = works.indices.filter { !left.contains($0) }.map { works[$0] }
        }
        fitted.artworks = works.map(\.artwork)
        fitted.deletions = deletions.map(\.deletion)
        fitted.unreadable = unreadable + crowded
        return fitted
    }

    /// The first field of `artwork` longer than ``maxFieldBytes``, and its length.
    static func overlongField(of artwork: Artwork) -> (String, Int)? {
        let fields: [(String, String?)] = [
            ("object number", artwork.objectNumber), ("title", artwork.title), ("artist", artwork.artist),
            ("image URL", artwork.imageURL), ("record id", artwork.recordId), ("datestamp", artwork.datestamp),
        ]
        for (name, value) in fields {
            if let bytes = value?.utf8.count, bytes > maxFieldBytes { return (name, bytes) }
        }
        return nil
    }

    /// `record` with its id and reason cut to ``maxNamingScalars`` scalars each.
    static func named(_ record: UnreadableRecord) -> UnreadableRecord {
        var record = record
        (record.recordId, record.reason) = (naming(record.recordId), naming(record.reason))
        return record
    }

    /// `recordId` cut to ``maxNamingScalars`` scalars (a grapheme can be any length).
    static func naming(_ recordId: String) -> String {
        let scalars = recordId.unicodeScalars
        guard scalars.count > maxNamingScalars else { return recordId }
        var cut = String.UnicodeScalarView()
        cut.append(contentsOf: scalars.prefix(maxNamingScalars))
        return String(cut) + "…"
    }

    /// The bytes `value` takes in the message. Encoding what was decoded or built from
    /// strings does not fail; counted as large as its fields could be escaped if it ever did.
    private static func encodedSize(of value: some Encodable) -> Int {
        (try? JSONEncoder().encode(value).count) ?? 6 * 6 * maxFieldBytes
    }

    private static func unreadable(_ artwork: Artwork, _ reason: String) -> UnreadableRecord {
        named(
            UnreadableRecord(
                recordId: naming(artwork.recordId ?? artwork.objectNumber), reason: reason,
                bytes: try? JSONEncoder().encode(artwork).map { $0 }))
    }
}
