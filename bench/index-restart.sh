#!/usr/bin/env bash
# Benchmark: how soon a restarted index copy is back. Builds the index of PAGES pages of WORKS
# works (embedded broker, or Tansu with BROKER=tansu; as bench/index.sh), stops the copy
# (SIGTERM), starts a new one on an empty --state folder (a new container), or with SAME_STATE=1
# on the folder the first one sealed (a pod restart), produces one new page at once, and times
# from the new copy's start to the published manifest counting that page, and from its groups'
# last assignment (the three stages' restores from their changelogs, their catching up, and a
# publish round).
# COPIES=N: N copies build the index, and only the first is stopped and started again while the
# others run on (one step of a rolling update). LOGS=DIR keeps the copies' logs there.
#   [BROKER=tansu] [VERSIONED=1] [COMPRESSION=lz4] [SAME_STATE=1] [COPIES=N] [LOGS=DIR] bench/index-restart.sh [PAGES] [WORKS]
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${1:-1000}
works=${2:-100}
source bench/index-common.sh
compression=()
[ -n "${COMPRESSION:-}" ] && compression=(--kafka "compression.type=$COMPRESSION")
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
copies=${COPIES:-1}
# start_copy NAME [STATE]: a copy logging to worker-NAME.log, on the folder state-STATE (state-NAME);
# its process in $copy_pid, and among $worker_pid.
start_copy() {
  "$bin/artpipe" index-worker --brokers "$brokers" --out "$work/out" --state "$work/state-${2:-$1}" --write-interval 1 \
    --metrics-interval 3600 --log-level info --kafka fetch.wait.max.ms=50 "${compression[@]}" \
    ${worker_kafka[@]+"${worker_kafka[@]}"} \
    >"$work/worker-$1.log" 2>&1 &
  copy_pid=$!
  worker_pid="$worker_pid $copy_pid"
}

start_broker
"$bin/artpipe-probe" produce-pages --brokers "$brokers" --pages "$pages" --works "$works" ${VERSIONED:+--versioned} \
  "${compression[@]}"
expected=$((pages * works))
start_copy first
first_pid=$copy_pid
for copy in $(seq 2 "$copies"); do start_copy "first-$copy"; done
wait_for_works "$expected" "${INDEX_TIMEOUT:-1800}"
kill -TERM "$first_pid"
wait "$first_pid" || true
worker_pid=$(echo "$worker_pid" | tr ' ' '\n' | grep -vx "$first_pid" | tr '\n' ' ' || true)
restarted=$(date +%s.%N)
if [ -n "${SAME_STATE:-}" ]; then start_copy second first; else start_copy second; fi
"$bin/artpipe-probe" produce-pages --brokers "$brokers" --pages 1 --works "$works" --first-page $((pages + 1)) \
  ${VERSIONED:+--versioned} "${compression[@]}" >/dev/null
wait_for_works $((expected + works)) 600 || { tail -n 30 "$work/worker-second.log"; exit 1; }
back=$(date +%s.%N)
restores=$(grep -c 'pages partition restored' "$work/worker-second.log" || true)
kept=$(grep -c 'state file kept from a clean stop' "$work/worker-second.log" || true)
[ -z "${LOGS:-}" ] || { mkdir -p "$LOGS" && cp "$work"/worker-*.log "$LOGS/"; }
kill -TERM $worker_pid
for pid in $worker_pid; do wait "$pid" || true; done
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -m)"
# When its three groups had all assigned it their partitions: a rebalance waits on the broker (the
# embedded broker lets a stopped member's session run out rather than take its leave).
assigned_line=$(grep '"msg":"partitions assigned"' "$work/worker-second.log" | tail -1)
assigned=$(date -d "$(echo "$assigned_line" | grep -o '"ts":"[^"]*"' | cut -d'"' -f4)" +%s.%N)
state=$([ -n "${SAME_STATE:-}" ] && echo "its own --state ($kept of 3 files kept)" || echo "an empty --state")
echo "index of $expected works over $copies copies: the first restarted on $state had a new page of $works works in the manifest after $(seconds "$restarted" "$back") s; $(seconds "$restarted" "$assigned") s of it waiting for its groups' assignments, $(seconds "$assigned" "$back") s from the last assignment ($restores pages partitions restored)"
