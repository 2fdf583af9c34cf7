import Synchronization

/// The lines of `index.json` and `gallery/artists.js` that name every artist, kept in runs
/// between assemblies. Both files name every artist, and appending each artist's line again
/// each round cost an assembly after a new page about 120 of its 426 ms at 10 million works
/// (30 MB from 270,271 lines; `bench/assembly.sh`). The artists in index order are cut into runs as letter pages are
/// (``LetterPaging``: where the names say), each run's lines joined once; a run made of the
/// same entries as last time is handed back as it was, so a round joins the runs a change
/// touched and copies the rest whole.
package final class ArtistLists: Sendable {
    /// Every artist's lines in index order, in runs, each run's lines joined by `,` and a newline.
    struct Lines {
        var manifest: [[UInt8]] = []
        var search: [[UInt8]] = []
    }

    private struct Run: Sendable {
        /// Held, not only their identities, so that no new entry can come to have the identity
        /// of one gone (the run is found by its first).
        var artists: [ArtistEntry]
        var manifest: [UInt8]
        var search: [UInt8]

        init(_ artists: ArraySlice<ArtistEntry>) {
            self.artists = Array(artists)
            manifest = Self.joined(artists.map(\.manifestLine))
            search = Self.joined(artists.map(\.searchLine))
        }

        static func joined(_ lines: [[UInt8]]) -> [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(lines.map { $0.count + 2 }.reduce(0, +))
            for (number, line) in lines.enumerated() {
                if number > 0 { bytes += ",\n".utf8 }
                bytes += line
            }
            return bytes
        }
    }

    /// The last call's runs, by the identity of each run's first entry.
    private let last = Mutex<[ObjectIdentifier: Run]>([:])
    private let joinedLast = Atomic<Int>(0)

    package init() {}

    /// The lines of `artists`, every artist's entry in index order.
    func lines(of artists: [ArtistEntry]) -> Lines {
        last.withLock { last in
            var (next, lines, joined) = ([ObjectIdentifier: Run](), Lines(), 0)
            for run in artists.isEmpty ? [] : LetterPaging.pages(artists, mayEnd: \.mayEndLetterPage) {
                let key = ObjectIdentifier(run[run.startIndex])
                var kept: Run
                if let before = last[key], before.artists.isIdentical(to: run) {
                    kept = before
                } else {
                    kept = Run(run)
                    joined += 1
                }
                next[key] = kept
                lines.manifest.append(kept.manifest)
                lines.search.append(kept.search)
            }
            last = next
            joinedLast.store(joined, ordering: .relaxed)
            return lines
        }
    }

    /// Forgets the runs kept: the next call joins every one.
    func forget() {
        last.withLock { $0 = [:] }
    }

    /// How many runs the last call joined: the rest were the last call's.
    var joined: Int { joinedLast.load(ordering: .relaxed) }
}
