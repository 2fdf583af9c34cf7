import Synchronization

/// The letter pages of the last assembly, each with what it was made from: an assembly renders
/// a frame again only where it changed, and puts a page together again only where its frame or
/// its artists did. A page is its frame (title, every letter's link, pager) around its list of
/// artists, which is the artists' kept lines (``ArtistEntry``) put together. An artist who comes
/// or goes changes the page it is on (``LetterPaging``); a new count changes its own page's list.
/// A page that did not change is handed back as the same bytes, so comparing it with what was
/// written costs nothing. Holds the last assembly's pages only.
package final class LetterPages: Sendable {
    /// What a frame shows.
    struct Frame: Equatable, Sendable {
        /// Every letter's key, for the links at the top.
        var letters: [String]
        var letter: String
        var page: Int
        var pageCount: Int
        /// The page's first and last artist, in the title.
        var first: String
        var last: String
        /// The site's address its Open Graph properties name, where it has them.
        var site: String? = nil
    }

    /// A page to put together: its frame, how to render it, its artists in order (their
    /// positions in every artist's entries: a list of its own for each page, made each round
    /// for all of them, cost most of the gallery's part of an assembly in retains).
    struct Page {
        var frame: Frame
        var renderFrame: () -> (head: [UInt8], tail: [UInt8])
        var positions: ArraySlice<Int>
        var entries: [ArtistEntry]

        /// Whether `kept` are this page's artists, entry for entry.
        func shows(_ kept: [ArtistEntry]) -> Bool {
            guard kept.count == positions.count else { return false }
            for (entry, position) in zip(kept, positions) where entry !== entries[position] { return false }
            return true
        }

        var artists: [ArtistEntry] { positions.map { entries[$0] } }
    }

    private struct Kept: Sendable {
        var frame: Frame
        var head: [UInt8]
        var tail: [UInt8]
        /// The entries the page was put together from: an assembly keeps an artist's entry
        /// while its lines stay the same (``AssembledArtists``). Held, not only their
        /// identities, so that no new entry can come to have the identity of one gone.
        var artists: [ArtistEntry]
        var bytes: [UInt8]
    }

    private let last = Mutex<[String: Kept]>([:])
    /// How many frames the last assembly rendered, and how many pages it put together: the
    /// rest were the last one's bytes.
    private let framedLast = Atomic<Int>(0)
    private let composedLast = Atomic<Int>(0)

    package init() {}

    /// The pages at these paths, each frame rendered, and each page put together, only where
    /// the last call's differs.
    func pages(_ pages: [String: Page]) -> [String: [UInt8]] {
        last.withLock { last in
            var next: [String: Kept] = [:]
            var files: [String: [UInt8]] = [:]
            var (framed, composed) = (0, 0)
            for (path, page) in pages {
                let before = last[path]
                if let before, before.frame == page.frame, page.shows(before.artists) {
                    (next[path], files[path]) = (before, before.bytes)
                    continue
                }
                var kept: Kept
                if let before, before.frame == page.frame {
                    kept = before
                } else {
                    let (head, tail) = page.renderFrame()
                    kept = Kept(frame: page.frame, head: head, tail: tail, artists: [], bytes: [])
                    framed += 1
                }
                let artists = page.artists
                let list = GallerySite.letterPageList(artists)
                var bytes = kept.head
                bytes.reserveCapacity(kept.head.count + list.count + kept.tail.count)
                bytes += list
                bytes += kept.tail
                (kept.artists, kept.bytes) = (artists, bytes)
                composed += 1
                (next[path], files[path]) = (kept, bytes)
            }
            last = next
            framedLast.store(framed, ordering: .relaxed)
            composedLast.store(composed, ordering: .relaxed)
            return files
        }
    }

    /// Forgets the pages kept: the next call renders every one.
    func forget() {
        last.withLock { $0 = [:] }
    }

    /// How many frames the last call rendered.
    var framed: Int { framedLast.load(ordering: .relaxed) }
    /// How many pages the last call put together.
    var composed: Int { composedLast.load(ordering: .relaxed) }
}
