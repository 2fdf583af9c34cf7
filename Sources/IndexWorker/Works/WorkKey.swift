import PipelineContract

/// A work's identity across pages, the key of `artpipe.index-works` and
/// `artpipe.index-artists`: its source and the source's record id for versioned sources
/// (OAI-PMH), its source and object number for the others.
package struct WorkKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    package var source: String
    /// A record id when ``isRecord``, else an object number.
    package var id: String
    package var isRecord: Bool

    package init(source: String, id: String, isRecord: Bool) {
        (self.source, self.id, self.isRecord) = (source, id, isRecord)
    }

    /// The work `artwork` is a version or a listing of.
    package init(source: String, artwork: Artwork) {
        if let recordId = artwork.recordId, artwork.datestamp != nil {
            self.init(source: source, id: recordId, isRecord: true)
        } else {
            self.init(source: source, id: CanonicalText.of(artwork.objectNumber), isRecord: false)
        }
    }

    /// `r` or `o`, the source and the id, separated by U+001F (which neither holds in practice,
    /// and which ``init(text:)`` splits on only twice).
    package var description: String { "\(isRecord ? "r" : "o")\u{1F}\(source)\u{1F}\(id)" }

    package init?(text: some StringProtocol) {
        let parts = text.split(separator: "\u{1F}", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "r" || parts[0] == "o" else { return nil }
        self.init(source: String(parts[1]), id: String(parts[2]), isRecord: parts[0] == "r")
    }

    /// Its partition of `artpipe.index-works` among `count`: FNV-1a of its text.
    package func partition(of count: Int) -> Int {
        Int(IndexLayout.nameHash(description) % UInt64(count))
    }

    package static func < (a: WorkKey, b: WorkKey) -> Bool {
        ArtistIndex.scalarsPrecede(a.description, b.description)
    }
}
