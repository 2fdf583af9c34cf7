#!/usr/bin/env bash
# Where an index worker's memory goes: heaptrack of one copy rebuilding the index from PAGES
# pages of WORKS versioned works (embedded broker, 12 partitions), stopped once the manifest
# counts them all; prints the peak heap and the peak consumers grouped by the innermost
# artpipe frame (docs/benchmarks.md, "Where a copy's memory goes").
#   bench/index-heap.sh [PAGES] [WORKS]
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${1:-1000}
works=${2:-100}
if ! command -v heaptrack >/dev/null; then
  sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get install -y -qq heaptrack >/dev/null
fi
source bench/index-common.sh
start_broker
"$bin/artpipe-probe" produce-pages --brokers "$brokers" --pages "$pages" --works "$works" --versioned >/dev/null
heaptrack -o "$work/heap" "$bin/artpipe" index-worker --brokers "$brokers" --out "$work/out" --write-interval 1 \
  --metrics-interval 3600 --log-level warning --kafka fetch.wait.max.ms=50 >"$work/worker.log" 2>&1 &
worker_pid=$!
wait_for_works $((pages * works)) 1800
pkill -TERM -f "artpipe index-worker" || true
wait "$worker_pid" || true
worker_pid=
heaptrack_print -f "$work"/heap.*zst 2>/dev/null | grep -E '^peak heap|^peak RSS'
heaptrack_print -f "$work"/heap.*zst --print-flamegraph "$work/stacks" --flamegraph-cost-type peak >/dev/null 2>&1
python3 - "$work/stacks" <<'PY'
import collections, re, sys
totals = collections.Counter()
for line in open(sys.argv[1]):
    stack, _, cost = line.rstrip().rpartition(" ")
    if not cost.isdigit():
        continue
    frame = next((f for f in reversed(stack.split(";"))
                  if re.search(r"\$s\d+(IndexWorker|KafkaClient|ArtpipeRuntime|ObjectStorage|PipelineContract|ArtpipeSupport)", f)), "other")
    totals[frame[:120]] += int(cost)
for frame, cost in totals.most_common(12):
    print(f"{cost / 1e6:8.1f} MB  {frame}")
PY
