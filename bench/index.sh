#!/usr/bin/env bash
# Benchmark: IndexWorker rebuilding the index from PAGES pages of WORKS works already in
# artpipe.pages (embedded broker, 12 partitions): time from start to the final index.json
# (the manifest, published last), works indexed per second, peak RSS, the published size.
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${1:-1000}
works=${2:-100}
[ -x /usr/bin/time ] || { sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo); "${sudo[@]}" apt-get install -y -qq time >/dev/null; }
swift build -c release --product artpipe >/dev/null
swift build -c release --product artpipe-probe >/dev/null
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'kill $broker_pid $worker_pid 2>/dev/null || true; rm -rf "$work"' EXIT
worker_pid=

"$bin/artpipe" broker --partitions 12 --bootstrap-file "$work/bootstrap" --log-level warning >/dev/null 2>&1 &
broker_pid=$!
for _ in $(seq 100); do [ -s "$work/bootstrap" ] && break; sleep 0.1; done
brokers=$(cat "$work/bootstrap")
"$bin/artpipe-probe" produce-pages --brokers "$brokers" --pages "$pages" --works "$works"

expected=$((pages * works))
start=$(date +%s.%N)
/usr/bin/time -o "$work/rss" -f '%M' "$bin/artpipe" index-worker --brokers "$brokers" --out "$work/out" \
  --write-interval 1 --metrics-interval 3600 --log-level warning >"$work/worker.log" 2>&1 &
worker_pid=$!
# The index is complete when its totals count every work.
until grep -q "\"totals\":{\"artists\":[0-9]*,\"works\":$expected," "$work/out/index.json" 2>/dev/null; do sleep 0.2; done
end=$(date +%s.%N)
pkill -TERM -P $worker_pid; wait $worker_pid || true  # signal the worker, not GNU time
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -m)"
awk -v n="$expected" -v a="$start" -v b="$end" -v r="$(tail -1 "$work/rss")" -v s="$(du -sh "$work/out/index.json" | cut -f1)" -v w="$(du -sh "$work/out/works" | cut -f1)" -v g="$(du -sh "$work/out/gallery" | cut -f1)" 'BEGIN {
  printf "index of %d works: final index.json after %.1f s (including the ~3 s group join), %.0f works/s, peak RSS %.0f MiB; index.json %s, works/ %s, gallery/ %s\n", n, b - a, n / (b - a), r / 1024, s, w, g }'
