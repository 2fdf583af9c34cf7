#!/usr/bin/env bash
# What the gallery's bucket pages weigh: a sample index of WORKS works by ARTISTS artists
# (artpipe-probe sample-gallery, release build), then the bytes of the bucket pages a work, the
# share of them that is the page's JSON-LD, and the largest page.
#   bench/gallery-bytes.sh [WORKS] [ARTISTS]
set -euo pipefail
cd "$(dirname "$0")/.."
works=${1:-1000000}
artists=${2:-20000}
swift build -c release --product artpipe-probe >/dev/null
bin=$(swift build -c release --show-bin-path)
out=$(mktemp -d -p "${TMPDIR:-/var/tmp}")
trap 'rm -rf "$out"' EXIT
start=$(date +%s.%N)
"$bin/artpipe-probe" sample-gallery --out "$out" --works "$works" --artists "$artists" --distinct-images 200
echo "published in $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
python3 - "$out/gallery" <<'PY'
import pathlib, re, sys
total = linked = works = largest = pages = 0
for page in pathlib.Path(sys.argv[1]).glob("[0-9a-f][0-9a-f][0-9a-f].html"):
    text = page.read_bytes()
    pages += 1
    total += len(text)
    largest = max(largest, len(text))
    linked += sum(len(m) for m in re.findall(rb'<script type="application/ld\+json">.*?</script>', text, re.S))
    works += text.count(b"<figure ")
print(f"{pages} bucket pages, {total / 1e6:,.1f} MB for {works:,} works: {total / works:.0f} bytes a work "
      f"({linked / works:.0f} of them JSON-LD); largest page {largest / 1024:,.0f} KiB")
PY
echo "works/: $(du -sh "$out/works" | cut -f1); gallery/: $(du -sh "$out/gallery" | cut -f1)"
