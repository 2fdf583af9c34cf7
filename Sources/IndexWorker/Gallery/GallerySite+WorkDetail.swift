import ArtpipeSupport

extension GallerySite {
    /// The larger thumbnail a work's detail shows, when the index has it.
    static let detailSize = "400"

    /// The id of a work's figure on its bucket page, its permalink's fragment: `w` and the 16 hex
    /// digits of FNV-1a over its object number, a zero byte and its record id. The same while the
    /// work stays in its artist's slice, whatever page or version holds it.
    static func workAnchor(_ work: ArtistIndex.Work) -> String {
        var hash = IndexLayout.nameHash(work.objectNumber) &* 0x100_0000_01b3
        for byte in (work.recordId ?? "").utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return "w" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// What a work's permalink shows, hidden until the link's fragment names the work: its larger
    /// thumbnail, full title, artist (a link to the artist's section), date, object number,
    /// rights in words with their link, its page at the source and its IIIF manifest.
    static func detail(
        _ work: ArtistIndex.Work, title: String, artist: String, section: String, into html: inout HTMLText
    ) {
        html.raw("<div class=\"detail\"><a class=\"close\" href=\"#")
        html.markup(section)
        html.raw("\" aria-label=\"Close\">×</a>")
        if let large = work.thumbnails[detailSize] ?? work.thumbnails[preferredSize] {
            html.raw("<img loading=\"lazy\" src=\"")
            html.text(link("../" + large))
            if let small = work.thumbnails[preferredSize], work.thumbnails[detailSize] != nil {
                html.raw("\" srcset=\"")
                html.text(link("../" + small))
                html.raw(" 200w, ")
                html.text(link("../" + large))
                html.raw(" 400w\" sizes=\"(max-width: 30rem) 90vw, 400px")
            }
            html.raw("\" alt=\"")
            html.text(title)
            html.raw("\">")
        }
        html.raw("<div><h3>")
        html.text(title)
        html.raw("</h3><dl><dt>Artist</dt><dd><a href=\"#")
        html.markup(section)
        html.raw("\">")
        html.text(displayName(artist))
        html.raw("</a></dd>")
        if let date = work.date {
            html.raw("<dt>Date</dt><dd>")
            html.text(date)
            html.raw("</dd>")
        }
        html.raw("<dt>Object number</dt><dd>")
        html.text(work.objectNumber)
        html.raw("</dd>")
        if let rights = work.rights.map(RightsStatement.init) {
            html.raw("<dt>Rights</dt><dd>")
            external(rights.link, words: rights.words, into: &html)
            html.raw("</dd>")
        }
        html.raw("</dl>")
        if let landingPage = work.landingPage {
            html.raw("<p>")
            external(landingPage, words: "View at " + institution(of: landingPage), into: &html)
            html.raw("</p>")
        }
        if let manifest = work.iiifManifest {
            html.raw("<p>")
            external(manifest, words: "IIIF manifest", into: &html)
            html.raw("</p>")
        }
        html.raw("<p><a href=\"#")
        html.markup(workAnchor(work))
        html.raw("\">Link to this work</a></p></div></div>")
    }

    /// `words`, linked to `url` when it is a web address the source gave (never another scheme:
    /// a record's `javascript:` stays text).
    private static func external(_ url: String?, words: String, into html: inout HTMLText) {
        guard let url, isWebAddress(url) else {
            html.text(words)
            return
        }
        html.raw("<a rel=\"noopener\" href=\"")
        html.text(url)
        html.raw("\">")
        html.text(words)
        html.raw("</a>")
    }

    static func isWebAddress(_ url: String) -> Bool {
        let lowered = url.prefix(8).lowercased()
        return (lowered.hasPrefix("https://") || lowered.hasPrefix("http://"))
            && !url.contains { $0 == " " || $0 == "\"" || $0 == "<" || $0 == ">" || $0.isNewline }
    }

    /// Who holds the work, as its landing page's host names it (`www.` left out).
    static func institution(of landingPage: String) -> String {
        let afterScheme = landingPage.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: true)
        guard afterScheme.count >= 2 else { return "the source" }
        let host = afterScheme[1].split(separator: ":").first.map(String.init) ?? ""
        return host.hasPrefix("www.") ? String(host.dropFirst(4)) : host.isEmpty ? "the source" : host
    }
}
