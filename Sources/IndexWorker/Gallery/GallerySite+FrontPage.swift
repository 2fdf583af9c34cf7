import ArtpipeSupport

extension GallerySite {
    /// The front page; with `site`, its Open Graph properties (``OpenGraph``).
    static func frontPage(totals: ArtistIndex.Totals, letters: [Letter], site: SiteAddress? = nil) -> [UInt8] {
        var html = HTMLText(reservingCapacity: 8192)
        let heading = "\(grouped(totals.works)) works by \(grouped(totals.artists)) artists"
        html.head(
            title: "artpipe — " + heading, style: stylePath,
            openGraph: site.map {
                OpenGraph(
                    site: $0, title: "artpipe — " + heading,
                    description: heading + ", by artist, with a search over their names", path: frontPagePath)
            })
        html.raw("<header><h1>")
        html.markup(heading)
        html.raw("</h1>\n<p class=\"totals\">")
        let count = { (status: String) in grouped(totals.thumbnails[status, default: 0]) }
        html.markup(
            "\(count("ok")) with thumbnails · \(count("noImage")) without an image · \(count("failed")) failed"
                + " · \(count("pending")) not made yet")
        html.raw("</p>\n<input id=\"q\" type=\"search\" placeholder=\"Search artists\" aria-label=\"Search artists\"")
        html.raw(" autocomplete=\"off\">\n<ul id=\"results\" class=\"artists\"></ul>\n</header>\n")
        letterLinks(letters, counts: true, prefix: "\(IndexLayout.galleryFolder)/", into: &html)
        html.raw("<script>\n")
        html.raw(searchScript)
        html.raw("</script>\n</body></html>\n")
        return html.bytes
    }

    /// `1,234,567`: digits in groups of three, the same in every locale.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var text = number < 0 ? "-" : ""
        for (position, digit) in digits.enumerated() {
            if position > 0 && (digits.count - position) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }

    /// The search box: loads the artist list on first use (a script file, so it works from
    /// `file://`), then shows the first 50 names containing what was typed, case and accents folded.
    static let searchScript: StaticString = #"""
        (function () {
          var box = document.getElementById('q'), out = document.getElementById('results');
          var list = null, loading = false;
          function fold(s) { return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase(); }
          function item(text, href, count) {
            var li = document.createElement('li');
            if (href) { var a = document.createElement('a'); a.href = href; a.textContent = text; li.appendChild(a); }
            else { li.textContent = text; }
            if (count) { var s = document.createElement('small'); s.textContent = ' ' + count; li.appendChild(s); }
            out.appendChild(li);
          }
          function show() {
            out.textContent = '';
            var term = fold(box.value.trim());
            if (!term) { return; }
            if (!list) { item('Loading the artist list…'); return; }
            var shown = 0;
            for (var i = 0; i < list.length && shown < 50; i++) {
              if (list[i][3].indexOf(term) >= 0) {
                item(list[i][0] || 'Unknown maker', 'gallery/' + list[i][2], list[i][1]); shown++;
              }
            }
            if (!shown) { item('No artist’s name contains “' + box.value.trim() + '”'); }
          }
          function load() {
            if (list || loading) { return; }
            loading = true;
            var script = document.createElement('script');
            script.src = 'gallery/artists.js';
            script.onload = function () {
              list = (window.artpipeArtists || []).map(function (a) { return a.concat([fold(a[0])]); });
              show();
            };
            script.onerror = function () { out.textContent = ''; item('The artist list could not be loaded'); };
            document.head.appendChild(script);
          }
          box.addEventListener('focus', load);
          box.addEventListener('input', function () { load(); show(); });
        })();

        """#

    /// `gallery/artists.js`: every artist's name, count and link, for the search box.
    /// - Parameter artists: every artist's line in index order, in runs (``ArtistLists``).
    static func artistList(_ artists: [[UInt8]]) -> [UInt8] {
        var json = JSONText(reservingCapacity: artists.map { $0.count + 2 }.reduce(64, +))
        json.raw("window.artpipeArtists = [")
        for (number, run) in artists.enumerated() {
            json.raw(number == 0 ? "\n" : ",\n")
            json.part(run)
        }
        json.raw("];\n")
        return json.bytes
    }

    /// One artist's entry in `gallery/artists.js`: `["name",works,"link"]`.
    static func searchLine(name: String, works: Int, link: String) -> [UInt8] {
        var json = JSONText(reservingCapacity: name.utf8.count + link.utf8.count + 16)
        json.byte(UInt8(ascii: "["))
        json.string(name)
        json.byte(UInt8(ascii: ","))
        json.int(works)
        json.byte(UInt8(ascii: ","))
        json.string(link)
        json.byte(UInt8(ascii: "]"))
        return json.bytes
    }
}
