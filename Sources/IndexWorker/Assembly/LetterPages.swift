import Synchronization

/// The letter pages' frames of the last assembly, each with what it was rendered from: an
/// assembly renders a frame again only where it changed. A page is its frame (title, every
/// letter's link with its count, pager) around its list of artists, which is the artists' kept
/// lines (``ArtistEntry``) put together: an artist who comes or goes changes every page's frame,
/// a new count none. Holds the last assembly's pages only.
package final class LetterPages: Sendable {
    /// What a frame shows.
    struct Frame: Equatable, Sendable {
        /// Every letter's key and artist count, for the links at the top.
        var letters: [String: Int]
        var letter: String
        var page: Int
        var pageCount: Int
        /// The letter's whole artist count, in the title.
        var letterCount: Int
    }

    /// A page to put together: its frame, how to render it, its list of artists.
    struct Page {
        var frame: Frame
        var renderFrame: () -> (head: [UInt8], tail: [UInt8])
        var list: [UInt8]
    }

    private struct Kept {
        var frame: Frame
        var head: [UInt8]
        var tail: [UInt8]
    }

    private let last = Mutex<[String: Kept]>([:])
    /// How many frames the last assembly rendered: the rest were the last one's bytes.
    private let framedLast = Atomic<Int>(0)

    package init() {}

    /// The pages at these paths, each frame rendered only where the last call's differs.
    func pages(_ pages: [String: Page]) -> [String: [UInt8]] {
        last.withLock { last in
            var next: [String: Kept] = [:]
            var files: [String: [UInt8]] = [:]
            var framed = 0
            for (path, page) in pages {
                var kept: Kept
                if let before = last[path], before.frame == page.frame {
                    kept = before
                } else {
                    let (head, tail) = page.renderFrame()
                    kept = Kept(frame: page.frame, head: head, tail: tail)
                    framed += 1
                }
                var bytes = kept.head
                bytes.reserveCapacity(kept.head.count + page.list.count + kept.tail.count)
                bytes += page.list
                bytes += kept.tail
                (next[path], files[path]) = (kept, bytes)
            }
            last = next
            framedLast.store(framed, ordering: .relaxed)
            return files
        }
    }

    /// Forgets the frames kept: the next call renders every one.
    func forget() {
        last.withLock { $0 = [:] }
    }

    /// How many frames the last call rendered.
    var framed: Int { framedLast.load(ordering: .relaxed) }
}
