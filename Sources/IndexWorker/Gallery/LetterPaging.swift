/// Where a letter's list of artists breaks into pages. A page ends after an artist whose name's
/// hash picks it (one name in ``spread``), once the page holds ``minimum`` artists, or at
/// ``maximum``; a last page shorter than ``minimum`` joins the one before. About 2,000 artists
/// a page. The breaks go with the names, not with positions: an artist who comes or goes
/// changes the page it is on (now and then a neighbour too), not every page after it, as
/// counting off 2,000 a page did. At 4 million works, 108,109 artists under one letter, that
/// rewrote 55 pages for each new artist. The lists of every artist are kept in runs cut the
/// same way (``ArtistLists``).
enum LetterPaging {
    static let minimum = 500
    static let spread: UInt64 = 1_500
    static let maximum = 6_000

    /// Whether an artist of this name may end a page.
    static func mayEnd(_ name: String) -> Bool {
        // The hash's high bits: FNV-1a's lowest mix least.
        (IndexLayout.nameHash(name) >> 24) % spread == 0
    }

    /// `artists` cut into pages, in order, at least one.
    /// - Parameter mayEnd: whether the artist at a position of `artists` may end a page.
    static func pages<Artist>(_ artists: [Artist], mayEnd: (Artist) -> Bool) -> [ArraySlice<Artist>] {
        var pages: [ArraySlice<Artist>] = []
        var start = 0
        for position in artists.indices {
            let size = position - start + 1
            if size >= maximum || (size >= minimum && mayEnd(artists[position])) {
                pages.append(artists[start...position])
                start = position + 1
            }
        }
        guard start < artists.count else { return pages.isEmpty ? [artists[...]] : pages }
        if let last = pages.last, artists.count - start < minimum {
            pages[pages.count - 1] = artists[last.startIndex...]
        } else {
            pages.append(artists[start...])
        }
        return pages
    }
}
