#!/usr/bin/env bash
# Benchmark: IndexWorker rebuilding the index from PAGES pages of WORKS works already in
# artpipe.pages (embedded broker, or Tansu with BROKER=tansu; PARTITIONS partitions, default 12,
# one artist shard each; VERSIONED=1: works
# with record ids and datestamps, as OAI-PMH gives them; THUMBNAILS=1: every page's thumbnails
# too, two sizes a work; not for the new pages, timed from the page's acknowledgement),
# with COPIES copies (default 1); COMPRESSION=lz4 (or zstd): the probe's and the workers' producers
# compress their batches, which Tansu's memory storage keeps as they come (10M works need it here):
# time from start to the final index.json (the manifest, published last), works indexed per
# second, the CPU the copies and the broker used meanwhile, each copy's peak RSS and state on
# disk, the published size; then NEW_PAGES new pages (default 5) of
# WORKS works, one after another, each timed from the broker's acknowledgement to the manifest
# counting it. INDEX_TIMEOUT: seconds the first complete index may take (default 1800); LOGS=DIR
# keeps the workers' logs there, whether or not the new pages arrive (give WORKER_OPTIONS="--log-level
# debug" to see each publish round's phases). On Tansu, last: how long asking a partition's end
# takes in each topic, which follows the batches it holds. On either: the floor (artpipe-probe topic-floor):
# the broker's own cost of reading the pages once and each repartition row once and writing it
# once, with the rebuild's time as a multiple of it. PROFILE=DIR: each copy runs under `perf record`.
#   [COPIES=N] [PARTITIONS=N] [BROKER=tansu] [VERSIONED=1] [THUMBNAILS=1] [COMPRESSION=lz4] [NEW_PAGES=N]
#   bench/index.sh [PAGES] [WORKS]
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${1:-1000}
works=${2:-100}
copies=${COPIES:-1}
# The contract's page numbers end at 100,000 (PageRequest.maxPage): the probe refuses a page past
# it, which for the new pages would come only after the rebuild, so it is checked here first.
new_pages=${NEW_PAGES:-5}
if [ $((pages + new_pages)) -gt 100000 ]; then
  echo "PAGES must leave room for the $new_pages new pages (at most $((100000 - new_pages))): use more WORKS a page" >&2
  exit 2
fi
source bench/index-common.sh
compression=()
[ -n "${COMPRESSION:-}" ] && compression=(--kafka "compression.type=$COMPRESSION")
keep_logs() { [ -z "${LOGS:-}" ] || { mkdir -p "$LOGS" && cp "$work"/worker-*.log "$LOGS/"; }; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

start_broker
"$bin/artpipe-probe" produce-pages --brokers "$brokers" --pages "$pages" --works "$works" ${VERSIONED:+--versioned} \
  ${THUMBNAILS:+--thumbnails} "${compression[@]}"

expected=$((pages * works))
# PROFILE=DIR: each copy runs under `perf record` (call graphs by frame pointer), its profile in DIR.
profile=()
[ -n "${PROFILE:-}" ] && mkdir -p "$PROFILE"
start=$(date +%s.%N)
pids=()
for copy in $(seq "$copies"); do
  [ -n "${PROFILE:-}" ] && profile=(perf record -F 499 --call-graph fp -o "$PROFILE/perf-$copy.data" --)
  # fetch.wait.max.ms: librdkafka's mock broker holds an empty fetch for all of it (500 ms by
  # default) even when a message arrives meanwhile; a Kafka broker answers as soon as one does.
  /usr/bin/time -o "$work/rss-$copy" -f '%M %U %S' ${profile[@]+"${profile[@]}"} "$bin/artpipe" index-worker --brokers "$brokers" --out "$work/out" \
    --state "$work/state-$copy" --write-interval 1 --metrics-interval 3600 --log-level warning \
    --kafka fetch.wait.max.ms=50 "${compression[@]}" ${worker_kafka[@]+"${worker_kafka[@]}"} ${WORKER_OPTIONS:-} \
    >"$work/worker-$copy.log" 2>&1 &
  pids+=($!)
done
worker_pid=${pids[*]}
# The index is complete when its totals count every work.
wait_for_works "$expected" "${INDEX_TIMEOUT:-1800}"
end=$(date +%s.%N)
# Where the rebuild's CPU went: the copies' processes (below GNU time, and perf's under PROFILE)
# and the broker's.
rebuild_cpu=()
for pid in "${pids[@]}"; do
  copy=$(pgrep -P "$pid")
  [ -n "${PROFILE:-}" ] && copy=$(pgrep -P "$copy")
  rebuild_cpu+=("$(cpu_seconds "$copy")")
done
broker_cpu=$(cpu_seconds "$(broker_process)")
latencies=()
for number in $(seq "$new_pages"); do
  "$bin/artpipe-probe" produce-pages --brokers "$brokers" --pages 1 --works "$works" \
    --first-page $((pages + number)) ${VERSIONED:+--versioned} "${compression[@]}" >/dev/null
  # Acknowledged: the producer process has returned.
  produced=$(date +%s.%N)
  wait_for_works $((expected + works * number)) 600 || {
    tail -n 30 "$work"/worker-*.log
    keep_logs
    exit 1
  }
  latencies+=("$(seconds "$produced" "$(date +%s.%N)")")
done
state=()
for copy in $(seq "$copies"); do state+=("$(du -sm "$work/state-$copy" | cut -f1)"); done
for pid in "${pids[@]}"; do pkill -TERM -P "$pid" || true; done  # signal the workers, not GNU time
for pid in "${pids[@]}"; do wait "$pid" || true; done
keep_logs
# The floor: what the broker itself costs the moves the rebuild made, on the topics it left (the
# new pages' rows among them): the pages read once, and each row of the two repartition topics
# read once and written once (bench/index.sh's rebuild writes and reads each once too).
floor=$("$bin/artpipe-probe" topic-floor --brokers "$brokers" --read artpipe.pages --copy artpipe.index-works \
  --copy artpipe.index-artists "${compression[@]}")
rss=()
cpu=()
for copy in $(seq "$copies"); do
  read -r kib user system < <(tail -1 "$work/rss-$copy")
  rss+=("$((kib / 1024))")
  cpu+=("$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.1f", u + s }')")
done
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -m)"
awk -v n="$expected" -v c="$copies" -v a="$start" -v b="$end" -v s="$(du -sh "$work/out/index.json" | cut -f1)" -v w="$(du -sh "$work/out/works" | cut -f1)" -v g="$(du -sh "$work/out/gallery" | cut -f1)" 'BEGIN {
  printf "index of %d works, %d copies: final index.json after %.1f s (group joins included), %.0f works/s; index.json %s, works/ %s, gallery/ %s\n", n, c, b - a, n / (b - a), s, w, g }'
echo "$floor"
awk -v a="$start" -v b="$end" -v f="$(echo "$floor" | sed -n 's/^floor: \([0-9.]*\) s$/\1/p')" 'BEGIN {
  printf "the rebuild against the floor: %.1fx\n", (b - a) / f }'
echo "peak RSS per copy: ${rss[*]} MiB; CPU per copy (user + system, new pages included; perf's too under PROFILE): ${cpu[*]} s"
echo "CPU until the index was complete: copies ${rebuild_cpu[*]} s, broker $broker_cpu s"
echo "state on disk per copy (--state: the stages' SQLite files): ${state[*]} MiB"
# Where the first copy's state goes, in bytes a work it holds (a copy holds 1/COPIES of them):
# each file's tables and indexes as SQLite's dbstat counts their pages, and its free pages.
if command -v sqlite3 >/dev/null; then
  for file in "$work/state-1"/*.sqlite; do
    name=$(basename "$file" .sqlite)
    sqlite3 -readonly "$file" "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name" |
      awk -F'|' -v f="$name" -v size="$(stat -c %s "$file")" '{ print f "." $1 "|" $2; used += $2 } END { print f ".free|" size - used }'
  done | awk -F'|' -v n="$expected" -v c="$copies" '{ line = line sep sprintf("%s %.0f", $1, $2 * c / n); sep = ", "; total += $2 }
    END { printf "state a work, by table and index (first copy): %.0f bytes: %s\n", total * c / n, line }'
fi
if [ "${BROKER:-embedded}" = tansu ]; then
  echo "Tansu's peak RSS: $(( $(awk '/VmHWM/ {print $2}' "/proc/$(pgrep -P "$broker_pid")/status") / 1024 )) MiB"
  # What a request costs Tansu grows with the batches its partition holds (bench/tansu-latency.sh):
  # each topic's partitions' ends asked one at a time, as a measure of how many the run left.
  PYTHONPATH="$tansu_folder" python3 - "$brokers" <<'PY'
import sys, time
from confluent_kafka import Consumer, TopicPartition
consumer = Consumer({"bootstrap.servers": sys.argv[1], "group.id": "bench-ends"})
for topic in ("artpipe.pages", "artpipe.index-pages", "artpipe.index-works", "artpipe.index-works-state", "artpipe.index-artists"):
    times = []
    for partition in sorted(consumer.list_topics(topic).topics[topic].partitions):
        for _ in range(3):
            start = time.time()
            consumer.get_watermark_offsets(TopicPartition(topic, partition), cached=False)
            times.append(time.time() - start)
    times.sort()
    print(f"{topic}: one partition's end asked in {times[len(times) // 2] * 1000:.1f} ms "
          f"(median of {len(times)}, worst {times[-1] * 1000:.1f})")
PY
fi
echo "one new page of $works works ($new_pages, one after another), in the published manifest: ${latencies[*]} s after the broker acknowledged it"
