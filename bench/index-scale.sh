#!/usr/bin/env bash
# 0.6's design only, out of `make bench` since 0.7: the index worker no longer reads the state
# artpipe-probe writes here (it keeps its state in Kafka's index topics); kept for the figures
# docs/benchmarks.md gives of 0.6, until issue #41's benchmark of the staged index replaces it.
# Benchmark (#16): the index at the full collection's scale. artpipe-probe index-state writes the
# state IndexWorker keeps for WORKS works by ARTISTS artists (default 1,000,000 by 30,000) and
# times the phases of a full build in-process; then `artpipe index-worker` starts on that state
# (embedded broker, 12 partitions): time to its first complete publish (the full build from its
# state), then time from producing one new page to the manifest counting it, peak RSS, and the
# largest published file. VERSIONED=1: the works carry record ids and datestamps, as the
# museum's OAI-PMH harvest gives them.
set -euo pipefail
cd "$(dirname "$0")/.."
works=${1:-1000000}
artists=${2:-30000}
source bench/index-common.sh
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -m)"
"$bin/artpipe-probe" index-state --out "$work/out" --works "$works" --artists "$artists" ${VERSIONED:+--versioned} --measure
# The measurement's own new page of 100 works is part of the state now.
works=$((works + 100))
rm -rf "$work/out/index.json" "$work/out/index.html" "$work/out/works" "$work/out/gallery"
echo "state: $(du -sh "$work/out/.index-state" | cut -f1) in $(ls "$work/out/.index-state" | wc -l) shard files"

start_broker
start=$(date +%s.%N)
# fetch.wait.max.ms: librdkafka's mock broker holds an empty fetch for all of it (500 ms by
# default) even when a message arrives meanwhile; a Kafka broker answers as soon as one does.
/usr/bin/time -o "$work/rss" -f '%M' "$bin/artpipe" index-worker --brokers "$brokers" --out "$work/out" \
  --write-interval 0.2 --metrics-interval 3600 --log-level warning --kafka fetch.wait.max.ms=50 \
  ${WORKER_OPTIONS:-} >"$work/worker.log" 2>&1 &
worker_pid=$!
wait_for_works "$works" 1800 || exit 1
full=$(date +%s.%N)
echo "index-worker: first complete publish from the state after $(seconds "$start" "$full") s ($(awk -v n="$works" -v a="$start" -v b="$full" 'BEGIN { printf "%.0f", n / (b - a) }') works/s, process start included)"
# A first new page, to wait for the consumer's group join; then five pages, each timed from
# being produced to the manifest counting it. Numbered past the state's, so all are new works.
"$bin/artpipe-probe" produce-pages --brokers "$brokers" --pages 1 --works 100 --first-page 50001 >/dev/null
wait_for_works $((works + 100)) 600 || exit 1
latencies=()
from_start=()
for number in 1 2 3 4 5; do
  started=$(date +%s.%N)
  "$bin/artpipe-probe" produce-pages --brokers "$brokers" --pages 1 --works 100 --first-page $((50001 + number)) >/dev/null
  # Acknowledged: the producer process has returned.
  produced=$(date +%s.%N)
  wait_for_works $((works + 100 * (number + 1))) 600 || exit 1
  landed=$(date +%s.%N)
  latencies+=("$(seconds "$produced" "$landed")")
  from_start+=("$(seconds "$started" "$landed")")
done
echo "one new page of 100 works (five, one after another), in the published manifest: ${latencies[*]} s after the broker acknowledged it; ${from_start[*]} s after the producer process started"
pkill -TERM -P $worker_pid; wait $worker_pid || true  # signal the worker, not GNU time
largest=$(find "$work/out" -path "$work/out/.index-state" -prune -o -type f -printf '%s %P\n' | sort -n | tail -1)
echo "peak RSS $(( $(tail -1 "$work/rss") / 1024 )) MiB ($(awk -v r="$(tail -1 "$work/rss")" -v n="$works" 'BEGIN { printf "%.0f", r * 1024 / n }') bytes per work); published: index.json $(du -h "$work/out/index.json" | cut -f1), works/ $(du -sh "$work/out/works" | cut -f1), gallery/ $(du -sh "$work/out/gallery" | cut -f1); largest file ${largest#* } $(( ${largest%% *} / 1024 )) KiB"
