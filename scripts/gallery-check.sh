#!/usr/bin/env bash
# Publishes a sample index (artpipe-probe sample-gallery) and opens its gallery as files in headless
# Chromium (Debian's package, installed when missing): screenshots of the front page, a letter page
# and the largest artist page, on a wide screen and a phone; Chromium's own timing of each first
# screen; and checks that every artist is listed, every work shown once, no page over 1 MiB.
#   scripts/gallery-check.sh [WORKS] [ARTISTS] [DISTINCT_IMAGES]     (CONFIG=release for large ones)
set -euo pipefail
cd "$(dirname "$0")/.."
works=${1:-60}
artists=${2:-7}
distinct=${3:-$works}
config=${CONFIG:-debug}
if ! command -v chromium >/dev/null 2>&1; then
  sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
fi
swift build -c "$config" --product artpipe-probe >/dev/null
bin=$(swift build -c "$config" --show-bin-path)
out=${GALLERY_OUT:-$(mktemp -d)}
fail() { echo "gallery-check: $*" >&2; exit 1; }
start=$(date +%s.%N)
site=https://gallery.example.org/art/
"$bin/artpipe-probe" sample-gallery --out "$out" --works "$works" --artists "$artists" --distinct-images "$distinct" --webp \
  --site-url "$site"
echo "published in $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s: $(find "$out/works" "$out/gallery" -type f | wc -l) files, $(du -sh "$out/works" | cut -f1) of works, $(du -sh "$out/gallery" | cut -f1) of gallery"

# Every artist listed once across the letter pages, every work once across the artist pages.
listed=$(cat "$out"/gallery/letter-*.html | grep -c '^<li><a href=')
shown=$(find "$out/gallery" -name '[0-9a-f][0-9a-f][0-9a-f].html' -exec cat {} + | grep -o '<figure ' | wc -l)
expected_artists=$(grep -c '^[,]\?{"name":' "$out/index.json")
[ "$listed" -eq "$expected_artists" ] || fail "letter pages list $listed artists, the manifest $expected_artists"
[ "$shown" -eq "$works" ] || fail "artist pages show $shown works, not $works"
largest=$(find "$out" -maxdepth 2 -name '*.html' -printf '%s %p\n' | sort -n | tail -1)
[ "${largest%% *}" -le $((1024 * 1024)) ] || fail "a page is over 1 MiB: $largest"
bucket=$(find "$out/gallery" -name '[0-9a-f][0-9a-f][0-9a-f].html' -printf '%s %P\n' | sort -n | tail -1 | cut -d' ' -f2)
letter=$(find "$out/gallery" -name 'letter-*.html' -printf '%s %P\n' | sort -n | tail -1 | cut -d' ' -f2)

flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --allow-file-access-from-files)
# Chromium's own timing of a page's first screen: the page in a frame of a measuring page, which
# reads the frame's navigation and paint entries once it has loaded.
measure() {
  cat >"$out/.measure.html" <<HTML
<!doctype html><html><body><pre id="r">no-timing</pre>
<iframe id="f" src="$1" style="width:1280px;height:900px;border:0"></iframe>
<script>
document.getElementById('f').addEventListener('load', function () {
  var p = this.contentWindow.performance, n = p.getEntriesByType('navigation')[0];
  var paint = p.getEntriesByType('paint').filter(function (e) { return e.name === 'first-contentful-paint'; })[0];
  document.getElementById('r').textContent = 'measured: DOMContentLoaded ' + n.domContentLoadedEventEnd.toFixed(0) +
    ' ms, load ' + p.now().toFixed(0) + ' ms' + (paint ? ', first contentful paint ' + paint.startTime.toFixed(0) + ' ms' : '') +
    ', ' + this.contentWindow.document.getElementsByTagName('*').length + ' elements';
});
</script></body></html>
HTML
  chromium "${flags[@]}" --window-size=1300,950 --dump-dom "file://$out/.measure.html" 2>/dev/null | grep -o 'measured: DOMContentLoaded [0-9][^<]*' | cut -c11- || echo "no timing"
}
for page in index.html "gallery/$letter" "gallery/$bucket"; do
  name=$(basename "$page" .html)
  chromium "${flags[@]}" --window-size=1280,900 --screenshot="$out/screenshot-$name.png" "file://$out/$page" >/dev/null 2>&1
  chromium "${flags[@]}" --window-size=390,844 --screenshot="$out/phone-$name.png" "file://$out/$page" >/dev/null 2>&1
  [ -s "$out/screenshot-$name.png" ] && [ -s "$out/phone-$name.png" ] || fail "no screenshot of $page"
  echo "$page: $(du -h "$out/$page" | cut -f1) of HTML; Chromium's timing from navigation: $(measure "$page")"
done
# The search box, typed into: accents and case folded, the artist list loaded from gallery/artists.js.
cat >"$out/.search.html" <<'HTML'
<!doctype html><html><body><pre id="r">no-result</pre>
<iframe id="f" src="index.html" style="width:1280px;height:900px;border:0"></iframe>
<script>
document.getElementById('f').addEventListener('load', function () {
  var page = this.contentWindow.document, box = page.getElementById('q'), tries = 0;
  box.value = 'EVA BES';
  box.dispatchEvent(new Event('input'));
  var poll = setInterval(function () {
    var found = page.querySelectorAll('#results li a');
    if (found.length || ++tries > 50) {
      clearInterval(poll);
      document.getElementById('r').textContent = 'search: ' + Array.prototype.map.call(found, function (a) {
        return a.textContent + ' at ' + a.getAttribute('href');
      }).join(' | ');
    }
  }, 100);
});
</script></body></html>
HTML
found=$(chromium "${flags[@]}" --virtual-time-budget=10000 --dump-dom "file://$out/.search.html" 2>/dev/null | grep -o 'search: [^<]*' | head -1)
case "$found" in
  "search: Ëva Bes at gallery/"*.html#a*) echo "the search box finds 'EVA BES': ${found#search: }" ;;
  *) fail "the search box did not find Ëva Bes: ${found:-no answer}" ;;
esac
# A work opens from its tile: the tile clicked, its detail shown at the work's own URL (the
# larger image, the artist's link back to the section, "view at" the museum); every tile is a
# link the keyboard reaches; every bucket page's JSON-LD parses, one VisualArtwork a work.
cat >"$out/.work.html" <<HTML
<!doctype html><html><body><pre id="r">no-result</pre>
<iframe id="f" src="gallery/$bucket" style="width:1280px;height:900px;border:0"></iframe>
<script>
var frame = document.getElementById('f'), said = [];
frame.addEventListener('load', function once() {
  frame.removeEventListener('load', once);
  var win = frame.contentWindow, doc = win.document, tiles = doc.querySelectorAll('figure > a.tile');
  var figures = doc.querySelectorAll('figure');
  said.push('tiles ' + tiles.length + ' of ' + figures.length + ' works');
  var reached = [].filter.call(tiles, function (a) { a.focus(); return doc.activeElement === a && a.tabIndex >= 0; });
  said.push('focused ' + reached.length);
  var graph = [];
  doc.querySelectorAll('script[type="application/ld+json"]').forEach(function (s) {
    try { graph = graph.concat(JSON.parse(s.textContent)['@graph']); } catch (e) { said.push('unparsed ' + e); }
  });
  said.push('linked data ' + graph.filter(function (w) { return w['@type'] === 'VisualArtwork' && w.url && w.name; }).length);
  var described = graph.filter(function (w) { return w.sameAs; })[0];
  if (!described) { said.push('no work of the page has a landing page'); document.getElementById('r').textContent = said.join('\n'); return; }
  var tile = doc.getElementById(described['@id'].slice(1)).querySelector('a.tile');
  tile.click();
  setTimeout(function () {
    var figure = tile.parentNode, detail = figure.querySelector('.detail');
    var shown = win.location.hash === '#' + figure.id && detail && win.getComputedStyle(detail).display !== 'none'
      && win.getComputedStyle(tile).display === 'none';
    var artist = detail.querySelector('dd a'), view = [].filter.call(detail.querySelectorAll('a'), function (a) {
      return a.textContent.indexOf('View at ') === 0; })[0];
    said.push('opened ' + (shown ? win.location.hash : 'nothing') + ' ' + (detail.querySelector('img') ? 'with image' : 'without image'));
    var image = detail.querySelector('img');
    said.push('shows ' + (image ? image.currentSrc.split('/').pop() : 'nothing'));
    said.push('artist ' + (artist && doc.getElementById(artist.getAttribute('href').slice(1)) ? 'links to its section' : 'missing'));
    said.push('view ' + (view ? view.href : 'missing'));
    document.getElementById('r').textContent = said.join('\n');
  }, 200);
});
</script></body></html>
HTML
opened=$(chromium "${flags[@]}" --virtual-time-budget=10000 --dump-dom "file://$out/.work.html" 2>/dev/null |
  python3 -c 'import html, sys; t = sys.stdin.read(); s = t.find("<pre id=\"r\">"); print(html.unescape(t[s + 12:t.find("</pre>", s)]) if s >= 0 else "no-result")')
figures=$(grep -o '<figure ' "$out/gallery/$bucket" | wc -l)
case "$opened" in no-result*) fail "Chromium did not finish opening a work: $opened" ;; esac
printf '%s\n' "$opened" | grep -qx "tiles $figures of $figures works" || fail "not every work is a tile: $opened"
printf '%s\n' "$opened" | grep -qx "focused $figures" || fail "the keyboard does not reach every tile: $opened"
printf '%s\n' "$opened" | grep -qx "linked data $figures" || fail "the JSON-LD does not name every work: $opened"
printf '%s\n' "$opened" | grep -q '^opened #w[0-9a-f]\{16\} with image$' || fail "a tile opens nothing: $opened"
printf '%s\n' "$opened" | grep -qx 'artist links to its section' || fail "the work's artist links nowhere: $opened"
printf '%s\n' "$opened" | grep -q '^shows .*\.webp$' || fail "the work's detail does not show its WebP: $opened"
printf '%s\n' "$opened" | grep -q '^view https://' || fail "no 'view at' link: $opened"
work=$(printf '%s\n' "$opened" | sed -n 's/^opened \(#w[0-9a-f]*\) .*/\1/p')
chromium "${flags[@]}" --window-size=1280,900 --screenshot="$out/screenshot-work.png" "file://$out/gallery/$bucket$work" >/dev/null 2>&1
chromium "${flags[@]}" --window-size=390,844 --screenshot="$out/phone-work.png" "file://$out/gallery/$bucket$work" >/dev/null 2>&1
[ -s "$out/screenshot-work.png" ] && [ -s "$out/phone-work.png" ] || fail "no screenshot of a work"
echo "a tile opens its work at gallery/$bucket$work: $(printf '%s' "$opened" | tr '\n' ';' | sed 's/;/; /g')"
# Every bucket page's JSON-LD parses.
python3 - "$out/gallery" <<'PY' || fail "a bucket page's JSON-LD does not parse"
import json, pathlib, re, sys
works = 0
for page in pathlib.Path(sys.argv[1]).glob("[0-9a-f][0-9a-f][0-9a-f].html"):
    text = page.read_text(encoding="utf-8")
    scripts = re.findall(r'<script type="application/ld\+json">(.*?)</script>', text, re.S)
    assert len(scripts) == 1, page
    graph = json.loads(scripts[0])["@graph"]
    assert len(graph) == text.count("<figure "), page
    works += len(graph)
print(f"JSON-LD of every bucket page parses: {works} VisualArtworks")
PY
# Every page's Open Graph URLs (and the sitemap's), taken back from the site's address to the
# folder, name a file; each bucket page that shows an image names one.
python3 - "$out" "$site" <<'PY' || fail "an Open Graph or sitemap URL names no file"
import pathlib, re, sys, urllib.parse
out, site = pathlib.Path(sys.argv[1]), sys.argv[2]
def local(url):
    assert url.startswith(site), url
    return out / urllib.parse.unquote(url[len(site):])
pages = [out / "index.html"] + sorted((out / "gallery").glob("letter-*.html"))
pages += sorted((out / "gallery").glob("[0-9a-f][0-9a-f][0-9a-f].html"))
images = 0
for page in pages:
    text = page.read_text(encoding="utf-8")
    head = text.split("<body>")[0]
    url = re.findall(r'<meta property="og:url" content="([^"]*)">', head)
    assert len(url) == 1 and local(url[0]) == page, (page, url)
    for image in re.findall(r'<meta property="og:image" content="([^"]*)">', head):
        assert local(image).is_file(), (page, image)
        images += 1
    if page.name[0] in "0123456789abcdef" and page.name[3:] == ".html" and "<img " in text:
        assert 'property="og:image"' in head, page
urls = re.findall(r"<loc>([^<]*)</loc>", (out / "sitemap.xml").read_text(encoding="utf-8"))
assert urls and all(local(u).is_file() for u in urls)
print(f"Open Graph of {len(pages)} pages names files: {images} images; the sitemap's {len(urls)} URLs name files")
PY
# Every image loads and every link names a file, as Chromium resolves them: each page in a frame,
# each <img> loaded again eagerly (the gallery's are lazy) and its naturalWidth read, each link's
# resolved URL percent-decoded and looked for on disk.
pages=$(cd "$out" && find index.html gallery -name '*.html' | sort | sed 's/.*/"&"/' | paste -sd, -)
cat >"$out/.links.html" <<HTML
<!doctype html><html><body><pre id="r">no-result</pre>
<iframe id="f" style="width:1280px;height:900px;border:0"></iframe>
<script>
var pages = [$pages], lines = [], images = 0, frame = document.getElementById('f');
function next() {
  if (!pages.length) { document.getElementById('r').textContent = 'checked ' + images + ' images\n' + lines.join('\n'); return; }
  frame.src = pages.shift();
}
frame.addEventListener('load', function () {
  var doc = this.contentWindow.document, page = this.contentWindow.location.href;
  doc.querySelectorAll('a[href]').forEach(function (a) { lines.push('link ' + page + ' ' + a.href); });
  var large = [].map.call(doc.querySelectorAll('source[data-large]'), function (s) {
    return {tagName: 'SOURCE', getAttribute: function (name) { return name === 'srcset' ? s.dataset.large : null; }};
  });
  var pending = [].slice.call(doc.querySelectorAll('img, picture source')).concat(large).map(function (img) {
    var source = img.getAttribute('srcset'), url = img.tagName === 'SOURCE' ? new URL(source, page).href : img.src;
    return new Promise(function (done) {
      var probe = new Image();
      probe.onload = probe.onerror = function () {
        images++;
        if (!probe.naturalWidth) { lines.push('broken ' + page + ' ' + (img.getAttribute('src') || source)); }
        done();
      };
      probe.src = url;
    });
  });
  Promise.all(pending).then(next);
});
next();
</script></body></html>
HTML
report=$(chromium "${flags[@]}" --virtual-time-budget=60000 --dump-dom "file://$out/.links.html" 2>/dev/null |
  python3 -c 'import html, sys; t = sys.stdin.read(); s = t.find("<pre id=\"r\">"); print(html.unescape(t[s + 12:t.find("</pre>", s)]) if s >= 0 else "no-result")')
checked=$(printf '%s\n' "$report" | sed -n 's/^checked \([0-9]*\) images$/\1/p')
[ -n "$checked" ] || fail "Chromium did not finish checking the images and links: $(printf '%s' "$report" | head -c 300)"
broken=$(printf '%s\n' "$report" | grep '^broken ' || true)
[ -z "$broken" ] || fail "$(printf '%s\n' "$broken" | wc -l) of $checked images do not load in Chromium, such as: $(printf '%s\n' "$broken" | head -3)"
missing=$(printf '%s\n' "$report" | grep '^link ' | python3 -c '
import os, sys, urllib.parse
for line in sys.stdin:
    _, page, url = line.split(" ", 2)
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme == "file" and not os.path.isfile(urllib.parse.unquote(parts.path)):
        print(page, "->", url.strip())
')
[ -z "$missing" ] || fail "links that name no file: $(printf '%s\n' "$missing" | head -3)"
links=$(printf '%s\n' "$report" | grep -c '^link ' || true)
echo "Chromium loaded all $checked images; all $links links name a file"
echo "$works works by $listed artists shown; largest page $((${largest%% *} / 1024)) KiB; screenshots: $out/screenshot-*.png, $out/phone-*.png"
