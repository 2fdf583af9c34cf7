#!/usr/bin/env bash
# Benchmark: the worker runtime with a no-op handler consuming and committing N small
# messages, against `kcat -C` reading the same topic, in the same run on the same broker.
#
#   bench/consume-vs-kcat.sh [MESSAGES] [RUNS]
#
# Both read from the embedded broker (librdkafka's mock cluster) over TCP on 127.0.0.1.
# kcat -C is a plain consumer: no group, no commits. artpipe is a group member that stores
# and commits every offset, so it does strictly more work. artpipe's rate is taken from its
# first handled message to its last (it excludes the ~3 s group join of the mock broker);
# its whole wall time is printed too.
set -euo pipefail
cd "$(dirname "$0")/.."

messages=${1:-1000000}
runs=${2:-5}
partitions=12
work=$(mktemp -d)
trap 'kill $broker_pid 2>/dev/null || true; rm -rf "$work"' EXIT

swift build -c release --product artpipe >/dev/null
swift build -c release --product artpipe-probe >/dev/null
bin=$(swift build -c release --show-bin-path)

"$bin/artpipe" broker --partitions $partitions --bootstrap-file "$work/bootstrap" --log-level warning >"$work/broker.log" 2>&1 &
broker_pid=$!
for _ in $(seq 100); do [ -s "$work/bootstrap" ] && break; sleep 0.1; done
brokers=$(cat "$work/bootstrap")
topic=artpipe.pages

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -m), librdkafka $(pkg-config --modversion rdkafka)"
"$bin/artpipe-probe" produce --brokers "$brokers" --topic $topic --count "$messages" --value-size 16

now() { date +%s.%N; }
for run in $(seq "$runs"); do
  start=$(now)
  got=$(kcat -C -b "$brokers" -t $topic -o beginning -e -q | wc -l)
  end=$(now)
  kcat_rate=$(awk -v n="$got" -v a="$start" -v b="$end" 'BEGIN { print n / (b - a) }')
  [ "$got" -eq "$messages" ] || { echo "kcat read $got of $messages messages" >&2; exit 1; }

  start=$(now)
  line=$("$bin/artpipe-probe" consume --brokers "$brokers" --topic $topic --group "bench-$run-$RANDOM" \
    --noop --exit-after "$messages" --metrics-interval 3600 --log-level warning \
    --kafka session.timeout.ms=6000 --kafka heartbeat.interval.ms=500 | grep '^handled')
  end=$(now)
  ours=$(echo "$line" | sed -E 's/.* ([0-9]+) msg\/s/\1/')
  awk -v run="$run" -v k="$kcat_rate" -v o="$ours" -v a="$start" -v b="$end" 'BEGIN {
    printf "run %d: kcat -C %.0f msg/s | artpipe runtime %.0f msg/s (wall %.2f s incl. group join) | ratio %.2fx\n", run, k, o, b - a, o / k }'
  echo "$kcat_rate $ours" >>"$work/rates"
done
# Medians: the broker shares the machine with both consumers, so single runs vary.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
kcat_median=$(cut -d' ' -f1 "$work/rates" | median)
ours_median=$(cut -d' ' -f2 "$work/rates" | median)
ratio_median=$(awk '{ print $2 / $1 }' "$work/rates" | median)
awk -v k="$kcat_median" -v o="$ours_median" -v r="$ratio_median" -v n="$runs" -v m="$messages" 'BEGIN {
  printf "median of %d runs, %d messages: kcat -C %.0f msg/s, artpipe runtime %.0f msg/s, ratio %.2fx (median of per-run ratios)\n", n, m, k, o, r }'
