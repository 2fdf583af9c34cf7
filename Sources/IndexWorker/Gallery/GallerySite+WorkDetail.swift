import ArtpipeSupport

extension GallerySite {
    /// The larger thumbnail a work's detail shows, when the index has it.
    static let detailSize = "400"

    /// The id of a work's figure on its bucket page, its URL's fragment: `w` and the 16 hex
    /// digits of FNV-1a over its source (its page id's first part), a zero byte, its object
    /// number, a zero byte and its record id. The same while the work stays in its artist's
    /// slice, whatever page or version holds it. Two works of one source with one object number
    /// and record id (two OAI-PMH repositories' records) share it: the page opens the first.
    static func workAnchor(_ work: ArtistIndex.Work) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in work.pageId.utf8 {
            if byte == UInt8(ascii: ":") { break }
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        hash = hash &* 0x100_0000_01b3
        for byte in work.objectNumber.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        hash = hash &* 0x100_0000_01b3
        for byte in (work.recordId ?? "").utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        // `w` and the hash's 16 hex digits, written by hand: asked for every work a page renders.
        return String(unsafeUninitializedCapacity: 17) { bytes in
            bytes[0] = UInt8(ascii: "w")
            for digit in 0..<16 {
                let nibble = UInt8((hash >> UInt64(60 - 4 * digit)) & 0xf)
                bytes[digit + 1] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return 17
        }
    }

    /// What opens a work on its bucket page: when the URL's fragment names a work's figure, one
    /// pane in that figure shows the work as the page's JSON-LD (``LinkedData``)
    /// describes it: its larger thumbnail (the smaller in `srcset`; the WebPs first where the
    /// tile offers them, its `<source>` naming the larger in `data-large`), full title, artist (a link
    /// to the artist's section), date, object number, rights in words with their link, "View at"
    /// its page at the source, its IIIF manifest and its own URL. Written once a page, so a work
    /// costs its JSON-LD only; every text is set as text, and only http(s) URLs become links.
    static let workDetailScript: StaticString = """
        <script>
        (function () {
          var data = document.querySelector('script[type="application/ld+json"]'), works = {};
          if (!data) return;
          JSON.parse(data.textContent)['@graph'].forEach(function (w) {
            var id = w['@id'].slice(1);
            if (!works[id]) works[id] = w;
          });
          var pane = document.createElement('div'), open = null;
          pane.className = 'detail';
          function add(parent, tag, text) {
            var e = document.createElement(tag);
            if (text) e.textContent = text;
            parent.appendChild(e);
            return e;
          }
          function link(parent, href, text, outside) {
            if (outside && !/^https?:\\/\\//i.test(href || '')) return text ? add(parent, 'span', text) : null;
            var a = add(parent, 'a', text);
            a.setAttribute('href', href);
            if (outside) a.rel = 'noopener';
            return a;
          }
          function row(list, term, fill) {
            add(list, 'dt', term);
            fill(add(list, 'dd'));
          }
          function show() {
            var id = location.hash.slice(1), w = works[id], figure = w && document.getElementById(id);
            if (open) open.classList.remove('open');
            pane.textContent = '';
            if (!figure) { if (pane.parentNode) pane.parentNode.removeChild(pane); open = null; return; }
            var section = figure.closest('section').id;
            var close = link(pane, '#' + section, '×');
            close.className = 'close';
            close.setAttribute('aria-label', 'Close');
            if (w.image) {
              var sizes = '(max-width: 30rem) 90vw, 400px', webp = figure.querySelector('source');
              var frame = webp && webp.dataset.large ? add(pane, 'picture') : pane;
              if (frame !== pane) {
                var source = add(frame, 'source');
                source.type = 'image/webp';
                source.srcset = webp.getAttribute('srcset') + ' 200w, ' + webp.dataset.large + ' 400w';
                source.sizes = sizes;
              }
              var img = add(frame, 'img');
              img.src = w.image;
              img.alt = w.name;
              if (w.thumbnailUrl && w.thumbnailUrl !== w.image) {
                img.srcset = w.thumbnailUrl + ' 200w, ' + w.image + ' 400w';
                img.sizes = sizes;
              }
            }
            var text = add(pane, 'div');
            add(text, 'h3', w.name);
            var list = add(text, 'dl');
            row(list, 'Artist', function (dd) {
              link(dd, '#' + section, w.creator ? w.creator.name : 'Unknown maker');
            });
            if (w.dateCreated) row(list, 'Date', function (dd) { dd.textContent = w.dateCreated; });
            row(list, 'Object number', function (dd) { dd.textContent = w.identifier; });
            if (w.license) row(list, 'Rights', function (dd) { link(dd, w.license['@id'], w.license.name, true); });
            else if (w.copyrightNotice) row(list, 'Rights', function (dd) { dd.textContent = w.copyrightNotice; });
            if (w.sameAs) {
              var host = w.sameAs.replace(/^[a-z]+:\\/\\/(www\\.)?/i, '').split(/[\\/:?#]/)[0];
              link(add(text, 'p'), w.sameAs, 'View at ' + host, true);
            }
            if (w.subjectOf) link(add(text, 'p'), w.subjectOf.url, 'IIIF manifest', true);
            link(add(text, 'p'), '#' + id, 'Link to this work');
            figure.appendChild(pane);
            figure.classList.add('open');
            open = figure;
          }
          window.addEventListener('hashchange', show);
          show();
        })();
        </script>

        """
}
