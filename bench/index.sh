#!/usr/bin/env bash
# Benchmark: IndexWorker rebuilding the index from PAGES pages of WORKS works already in
# artpipe.pages (embedded broker, 12 partitions): time from start to the final index.json
# (the manifest, published last), works indexed per second, peak RSS, the published size.
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${1:-1000}
works=${2:-100}
source bench/index-common.sh

start_broker
"$bin/artpipe-probe" produce-pages --brokers "$brokers" --pages "$pages" --works "$works"

expected=$((pages * works))
start=$(date +%s.%N)
/usr/bin/time -o "$work/rss" -f '%M' "$bin/artpipe" index-worker --brokers "$brokers" --out "$work/out" \
  --write-interval 1 --metrics-interval 3600 --log-level warning >"$work/worker.log" 2>&1 &
worker_pid=$!
# The index is complete when its totals count every work.
wait_for_works "$expected" 1800
end=$(date +%s.%N)
pkill -TERM -P $worker_pid; wait $worker_pid || true  # signal the worker, not GNU time
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -m)"
awk -v n="$expected" -v a="$start" -v b="$end" -v r="$(tail -1 "$work/rss")" -v s="$(du -sh "$work/out/index.json" | cut -f1)" -v w="$(du -sh "$work/out/works" | cut -f1)" -v g="$(du -sh "$work/out/gallery" | cut -f1)" 'BEGIN {
  printf "index of %d works: final index.json after %.1f s (including the ~3 s group join), %.0f works/s, peak RSS %.0f MiB; index.json %s, works/ %s, gallery/ %s\n", n, b - a, n / (b - a), r / 1024, s, w, g }'
