import ArtpipeSupport

/// `index.html`: a static gallery of the index, grouped by artist.
///
/// It opens as a file, without a server: thumbnails load lazily from their relative paths.
/// A jump list leads to the first artist of each letter; `content-visibility` lets the
/// browser skip laying out sections off screen, so 100,000 works stay usable.
public enum GalleryPage {
    /// The thumbnail size shown in the grid, when the index has it.
    public static let preferredSize = "200"

    public static func render(_ index: ArtistIndex) -> String {
        var html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>artpipe — \(index.totals.works) works by \(index.totals.artists) artists</title>
            <style>
            body{font-family:system-ui,sans-serif;margin:0 1.5rem;color:#222}
            nav{position:sticky;top:0;background:#fff;padding:.5rem 0;border-bottom:1px solid #ddd}
            nav a{margin-right:.4rem;text-decoration:none}
            section{content-visibility:auto;contain-intrinsic-size:auto 320px}
            h2{font-size:1.1rem;margin:1.5rem 0 .5rem}h2 small{color:#777;font-weight:normal}
            .works{display:flex;flex-wrap:wrap;gap:.75rem}
            figure{margin:0;width:160px}figure img{width:160px;height:160px;object-fit:contain;background:#f3f3f3}
            figcaption{font-size:.75rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
            .none{width:160px;height:160px;display:flex;align-items:center;justify-content:center;background:#f3f3f3;color:#999;font-size:.75rem}
            </style></head><body>
            <h1>\(index.totals.works) works by \(index.totals.artists) artists</h1>

            """
        var anchors: [(letter: String, id: String)] = []
        var sections = ""
        for (number, artist) in index.artists.enumerated() {
            let id = "artist-\(number)"
            let letter = jumpLetter(artist.name)
            if anchors.last?.letter != letter { anchors.append((letter, id)) }
            let name = artist.name.isEmpty ? "Unknown maker" : artist.name
            sections +=
                "<section id=\"\(id)\" data-artist><h2>\(escape(name)) <small>\(artist.works.count)</small></h2><div class=\"works\">\n"
            for work in artist.works {
                let title = escape(work.title.isEmpty ? work.objectNumber : work.title)
                sections += "<figure data-work=\"\(escape(work.objectNumber))\">"
                if let path = work.thumbnails[preferredSize] ?? work.thumbnails.values.sorted().first {
                    sections += "<img loading=\"lazy\" src=\"\(escape(path))\" alt=\"\(title)\">"
                } else {
                    sections += "<div class=\"none\">\(escape(work.thumbnailStatus))</div>"
                }
                sections += "<figcaption title=\"\(title)\">\(title)</figcaption></figure>\n"
            }
            sections += "</div></section>\n"
        }
        html += "<nav>" + anchors.map { "<a href=\"#\($0.id)\">\(escape($0.letter))</a>" }.joined() + "</nav>\n"
        html += sections + "</body></html>\n"
        return html
    }

    /// The jump-list letter of a name: its first letter, case and accents folded; `#` otherwise.
    static func jumpLetter(_ name: String) -> String {
        guard let first = ArtistIndex.collationKey(name).first, first.isLetter else { return "#" }
        return String(first).uppercased()
    }

    static func escape(_ text: String) -> String { MarkupText.escaped(text) }
}
