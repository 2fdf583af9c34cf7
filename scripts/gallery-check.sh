#!/usr/bin/env bash
# Opens a sample index.html as a file in headless Chromium (Debian's package, installed when
# missing), saves a screenshot, and checks that the rendered page holds every work.
set -euo pipefail
cd "$(dirname "$0")/.."
works=${1:-60}
distinct=${2:-$works}
if ! command -v chromium >/dev/null 2>&1; then
  sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
fi
swift build --product artpipe-probe >/dev/null
out=${GALLERY_OUT:-$(mktemp -d)}
.build/debug/artpipe-probe sample-gallery --out "$out" --works "$works" --distinct-images "$distinct"
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --allow-file-access-from-files --window-size=1280,1400)
chromium "${flags[@]}" --screenshot="$out/screenshot.png" "file://$out/index.html" >/dev/null 2>&1
start=$(date +%s.%N)
chromium "${flags[@]}" --dump-dom "file://$out/index.html" 2>/dev/null >"$out/dom.html"
end=$(date +%s.%N)
rendered=$(grep -o '<figure ' "$out/dom.html" | wc -l)
images=$(grep -o '<img loading="lazy"' "$out/dom.html" | wc -l)
sections=$(grep -o '<section ' "$out/dom.html" | wc -l)
expected_sections=$(grep -o '"name" : ' "$out/index.json" | wc -l)
[ -s "$out/screenshot.png" ] || { echo "no screenshot" >&2; exit 1; }
echo "rendered $rendered works ($images thumbnails) in $sections artist sections; Chromium load and DOM dump $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s; $(du -h "$out/index.html" | cut -f1) of HTML; screenshot: $out/screenshot.png"
[ "$rendered" -eq "$works" ] && [ "$sections" -eq "$expected_sections" ] || { echo "expected $works works in $expected_sections sections" >&2; exit 1; }
