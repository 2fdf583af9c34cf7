import Synchronization

/// The letter pages of the last assembly, each with what it was rendered from: an assembly
/// renders again only what changed. A page is its frame (title, every letter's link with its
/// count, pager) around its list of artists: an artist who comes or goes changes every page's
/// frame but only the list of the page it is on; a new page of works changes the counts on a
/// few lists. Holds the last assembly's pages only.
package final class LetterPages: Sendable {
    /// Everything a letter page shows.
    struct Inputs: Equatable, Sendable {
        struct Artist: Equatable, Sendable {
            var name: String
            var works: Int
            /// Where the link goes: the bucket of the artist's first slice.
            var bucket: Int
        }

        /// What the frame shows.
        struct Frame: Equatable, Sendable {
            /// Every letter's key and artist count, for the links at the top.
            var letters: [String: Int]
            var letter: String
            var page: Int
            var pageCount: Int
            /// The letter's whole artist count, in the title.
            var letterCount: Int
        }

        var frame: Frame
        var artists: [Artist]
    }

    /// How to render a page's parts.
    struct Parts {
        var frame: () -> (head: [UInt8], tail: [UInt8])
        var list: () -> [UInt8]
    }

    private struct Kept {
        var inputs: Inputs
        var head: [UInt8]
        var list: [UInt8]
        var tail: [UInt8]
    }

    private let last = Mutex<[String: Kept]>([:])
    /// How many lists and frames the last assembly rendered: the rest were the last one's bytes.
    private let renderedLast = Atomic<Int>(0)
    private let framedLast = Atomic<Int>(0)

    package init() {}

    /// The pages at these paths, each part rendered only where the last call's inputs differ.
    func pages(_ pages: [String: (inputs: Inputs, parts: Parts)]) -> [String: [UInt8]] {
        last.withLock { last in
            var next: [String: Kept] = [:]
            var (rendered, framed) = (0, 0)
            for (path, page) in pages {
                var kept: Kept
                if let before = last[path] {
                    kept = before
                    kept.inputs = page.inputs
                } else {
                    kept = Kept(inputs: page.inputs, head: [], list: [], tail: [])
                }
                if last[path]?.inputs.frame != page.inputs.frame {
                    (kept.head, kept.tail) = page.parts.frame()
                    framed += 1
                }
                if last[path]?.inputs.artists != page.inputs.artists {
                    kept.list = page.parts.list()
                    rendered += 1
                }
                next[path] = kept
            }
            last = next
            renderedLast.store(rendered, ordering: .relaxed)
            framedLast.store(framed, ordering: .relaxed)
            return next.mapValues { $0.head + $0.list + $0.tail }
        }
    }

    /// How many lists of artists the last call rendered.
    var rendered: Int { renderedLast.load(ordering: .relaxed) }
    /// How many frames the last call rendered.
    var framed: Int { framedLast.load(ordering: .relaxed) }
}
