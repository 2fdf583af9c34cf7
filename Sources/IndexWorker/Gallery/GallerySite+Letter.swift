import ArtpipeSupport

extension GallerySite {
    /// The artists whose names start with one letter, in index order.
    struct Letter {
        /// `a`…`z`, or `other`.
        var key: String
        var artists: [Int]

        var label: String { key == "other" ? "Other" : key.uppercased() }

        /// Relative to the output directory.
        func path(page: Int) -> String {
            "\(IndexLayout.galleryFolder)/\(fileName(page: page))"
        }

        /// Relative to the gallery folder.
        func fileName(page: Int) -> String {
            page == 0 ? "letter-\(key).html" : "letter-\(key)-\(page + 1).html"
        }

        /// The letter of a name whose collation key (``ArtistIndex/collationKey(_:)``) is
        /// `folded`, read from the key the index is sorted by: case and accents folded, `Émile`
        /// is under E; the unknown maker is under Other.
        static func key(folded: String) -> String {
            guard let first = folded.unicodeScalars.first, ("a"..."z").contains(first) else { return "other" }
            return String(first)
        }

        /// Every letter that has artists, A–Z then Other.
        /// - Parameter artists: every artist's entry, in index order.
        static func group(_ artists: [ArtistEntry]) -> [Letter] {
            var byKey: [String: [Int]] = [:]
            // In index order a letter's artists are one run (Other's a few): looked up once a run.
            var start = 0
            for position in artists.indices
            where position + 1 == artists.count || artists[position + 1].letter != artists[start].letter {
                byKey[artists[start].letter, default: []] += start...position
                start = position + 1
            }
            return byKey.map { Letter(key: $0.key, artists: $0.value) }.sorted {
                ($0.key == "other" ? 1 : 0, $0.key) < ($1.key == "other" ? 1 : 0, $1.key)
            }
        }
    }

    /// Links to every letter, with their artist counts where `counts` (the front page: a letter
    /// page without them changes only when its own artists do); `prefix` leads from the page to
    /// the gallery folder.
    static func letterLinks(_ letters: [Letter], counts: Bool, prefix: String, into html: inout HTMLText) {
        html.raw("<nav class=\"letters\" aria-label=\"Artists by letter\">")
        for letter in letters {
            html.raw("<a href=\"")
            html.text(link(prefix + letter.fileName(page: 0)))
            html.raw("\">")
            html.text(letter.label)
            if counts {
                html.raw("<small>")
                html.int(letter.artists.count)
                html.raw("</small>")
            }
            html.raw("</a>")
        }
        html.raw("</nav>\n")
    }

    /// A letter page is its frame around its list of artists (``LetterPages`` keeps them apart):
    /// the head, the title (the letter, and on a letter of several pages the page's number and
    /// its first and last artist) and every letter's link, up to the list; the pager and the end
    /// after it. Nothing in it counts artists: a letter page changes with its own artists only.
    /// With `site`, its Open Graph properties (``OpenGraph``), which name no count either.
    static func letterPageFrame(
        _ letter: Letter, page: Int, of pageCount: Int, from first: String, to last: String, letters: [Letter],
        site: SiteAddress? = nil
    ) -> (head: [UInt8], tail: [UInt8]) {
        var html = HTMLText(reservingCapacity: 4096)
        var title = letter.key == "other" ? "Other artists" : "Artists under \(letter.label)"
        if pageCount > 1 { title += " (\(page + 1)/\(pageCount)): \(displayName(first)) – \(displayName(last))" }
        html.head(
            title: title, style: "style.css",
            openGraph: site.map {
                OpenGraph(
                    site: $0, title: title, description: "Artists and their works, by name",
                    path: letter.path(page: page))
            })
        html.raw("<header><a href=\"../index.html\">All artists</a><h1>")
        html.text(title)
        html.raw("</h1></header>\n")
        letterLinks(letters, counts: false, prefix: "", into: &html)
        html.raw("<ul class=\"artists\">\n")
        var tail = HTMLText(reservingCapacity: 64 * pageCount + 64)
        tail.raw("</ul>\n")
        if pageCount > 1 {
            tail.raw("<nav class=\"pager\">")
            for number in 0..<pageCount {
                if number == page {
                    tail.raw("<b>")
                    tail.int(number + 1)
                    tail.raw("</b> ")
                } else {
                    tail.raw("<a href=\"")
                    tail.text(link(letter.fileName(page: number)))
                    tail.raw("\">")
                    tail.int(number + 1)
                    tail.raw("</a> ")
                }
            }
            tail.raw("</nav>\n")
        }
        tail.raw("</body></html>\n")
        return (html.bytes, tail.bytes)
    }

    /// A letter page's list: each artist's link, name and count.
    static func letterPageList(_ artists: [ArtistEntry]) -> [UInt8] {
        var html = HTMLText(reservingCapacity: artists.map(\.letterLine.count).reduce(0, +))
        for artist in artists { html.part(artist.letterLine) }
        return html.bytes
    }

    /// One artist's line on its letter page.
    static func letterLine(name: String, works: Int, link: String) -> [UInt8] {
        var html = HTMLText(reservingCapacity: name.utf8.count + link.utf8.count + 48)
        html.raw("<li><a href=\"")
        html.text(link)
        html.raw("\">")
        html.text(displayName(name))
        html.raw("</a> <small>")
        html.int(works)
        html.raw("</small></li>\n")
        return html.bytes
    }
}
