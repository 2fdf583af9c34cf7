#!/usr/bin/env bash
# Benchmark: artpipe's thumbnailer (libvips in-process) against vipsthumbnail (libvips'
# own tool, one process per image) and ImageMagick's `convert -thumbnail`, all on the same
# corpus of large noisy JPEGs (half 6000x4000, half 4000x5000), longest edge 400, JPEG
# quality 82, at concurrency 1 and 2. Images per second, ratios, peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."

count=${1:-24}
need=()
command -v vipsthumbnail >/dev/null 2>&1 || need+=(libvips-tools)
[ -x /usr/bin/time ] || need+=(time)
[ -x /usr/bin/convert-im6.q16 ] || need+=(imagemagick)
if [ ${#need[@]} -gt 0 ]; then
  sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${need[@]}" >/dev/null
fi
# Call ImageMagick by its real name: a `convert` earlier in PATH may be something else.
magick=/usr/bin/convert-im6.q16

swift build -c release --product artpipe-probe >/dev/null
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/artpipe-probe" thumbs make-corpus --out "$work/corpus" --count "$count" >/dev/null
export VIPS_WARNING=0

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -m), libvips $(pkg-config --modversion vips), $($magick -version | head -1 | cut -d' ' -f2-3)"
echo "corpus: $count JPEGs ($(du -sh "$work/corpus" | cut -f1)), half 6000x4000, half 4000x5000; thumbnails 400 px, Q82"

# run NAME COMMAND… : prints "NAME images/s peak-RSS-MiB". For the xargs pipelines the peak is
# that of the largest single process (GNU time reports the maximum over waited-for children).
run() {
  local name=$1; shift
  rm -rf "$work/out"; mkdir -p "$work/out"
  local start end rss
  start=$(date +%s.%N)
  /usr/bin/time -o "$work/rss" -f '%M' "$@" >/dev/null 2>&1
  rss=$(tail -1 "$work/rss")
  end=$(date +%s.%N)
  local made; made=$(ls "$work/out" | wc -l)
  [ "$made" -eq "$count" ] || { echo "$name made $made of $count thumbnails" >&2; exit 1; }
  awk -v n="$count" -v a="$start" -v b="$end" -v r="$rss" -v name="$name" 'BEGIN { printf "%s %.3f %.0f\n", name, n / (b - a), r / 1024 }'
}

results=$work/results
: >"$results"
cat "$work/corpus"/*.jpg >/dev/null  # every tool reads from the page cache
for p in 1 2; do
  run "artpipe-c$p" "$bin/artpipe-probe" thumbs thumbnail --input "$work/corpus" --out "$work/out" --concurrency $p >>"$results"
  run "vipsthumbnail-c$p" sh -c "ls '$work/corpus'/*.jpg | xargs -P $p -n 1 vipsthumbnail -s 400 -o '$work/out/%s.jpg[Q=82,strip]'" >>"$results"
  run "imagemagick-c$p" sh -c "ls '$work/corpus'/*.jpg | xargs -P $p -I{} sh -c '$magick \"\$1\" -thumbnail 400x400 -strip -quality 82 \"$work/out/\$(basename \"\$1\")\"' _ {}" >>"$results"
done
awk '
  { rate[$1] = $2; rss[$1] = $3 }
  END {
    for (p = 1; p <= 2; p++) {
      a = rate["artpipe-c" p]; v = rate["vipsthumbnail-c" p]; m = rate["imagemagick-c" p]
      printf "concurrency %d: artpipe %.2f img/s (peak RSS %d MiB) | vipsthumbnail %.2f img/s (%d MiB) | ImageMagick %.2f img/s (%d MiB)\n", p, a, rss["artpipe-c" p], v, rss["vipsthumbnail-c" p], m, rss["imagemagick-c" p]
      printf "  artpipe/vipsthumbnail %.2fx, artpipe/ImageMagick %.2fx, vipsthumbnail/ImageMagick %.2fx\n", a / v, a / m, v / m
    }
  }' "$results"
