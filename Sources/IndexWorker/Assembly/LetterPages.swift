import Synchronization

/// The letter pages of the last assembly, each with what it was rendered from: an assembly
/// renders again only the pages whose artists, counts or letter links changed. A new page of
/// works changes the counts on a few letter pages; only an artist who comes or goes changes
/// every page's letter links. Holds the last assembly's pages only.
package final class LetterPages: Sendable {
    /// Everything a letter page shows.
    struct Inputs: Equatable, Sendable {
        struct Artist: Equatable, Sendable {
            var name: String
            var works: Int
            /// Where the link goes: the bucket of the artist's first slice.
            var bucket: Int
        }

        /// Every letter's key and artist count, for the links at the top.
        var letters: [String: Int]
        var letter: String
        var page: Int
        var pageCount: Int
        /// The letter's whole artist count, in the title.
        var letterCount: Int
        var artists: [Artist]
    }

    private let last = Mutex<[String: (inputs: Inputs, bytes: [UInt8])]>([:])
    /// How many pages the last assembly rendered: the rest were the last one's bytes.
    private let renderedLast = Atomic<Int>(0)

    package init() {}

    /// The pages at these paths, each rendered only where the last call's inputs differ.
    func pages(_ pages: [String: (inputs: Inputs, render: () -> [UInt8])]) -> [String: [UInt8]] {
        last.withLock { last in
            var next: [String: (inputs: Inputs, bytes: [UInt8])] = [:]
            var rendered = 0
            for (path, page) in pages {
                if let kept = last[path], kept.inputs == page.inputs {
                    next[path] = kept
                } else {
                    next[path] = (page.inputs, page.render())
                    rendered += 1
                }
            }
            last = next
            renderedLast.store(rendered, ordering: .relaxed)
            return next.mapValues(\.bytes)
        }
    }

    /// How many pages the last call rendered.
    var rendered: Int { renderedLast.load(ordering: .relaxed) }
}
