#!/usr/bin/env bash
# Benchmark: IndexWorker publishing to a bucket (Ceph's RADOS Gateway, a fresh cluster from
# scripts/ceph-rgw.sh; root): the index built from PAGES pages of WORKS works already in
# artpipe.pages (12 partitions), timed from start to an index.json in the bucket that counts
# every work, with the gateway's requests meanwhile; then one new page of WORKS works, with
# the requests it cost (objects written for one page must stay proportional to the page).
#   bench/index-store.sh [PAGES] [WORKS]
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${1:-1000}
works=${2:-100}
source bench/index-common.sh
cluster=bench-index-$$
trap 'kill $broker_pid $worker_pid 2>/dev/null || true; scripts/ceph-rgw.sh stop "$cluster" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
export AWS_ACCESS_KEY_ID=BENCHKEY AWS_SECRET_ACCESS_KEY=bench-secret
scripts/ceph-rgw.sh setup >/dev/null
endpoint=$(PARENT=$$ scripts/ceph-rgw.sh start "$cluster" "$AWS_ACCESS_KEY_ID" "$AWS_SECRET_ACCESS_KEY" | sed -n 's/^endpoint: //p')
rgw_log=${IMAGE_CHECK_DIR:-$PWD/.build-image}/ceph-root/var/lib/artpipe-ceph/$cluster/log/client.rgw.log
bench/s3-request.py PUT "$endpoint" /bench >/dev/null

start_broker
"$bin/artpipe-probe" produce-pages --brokers "$brokers" --pages "$pages" --works "$works" >/dev/null

# The works index.json in the bucket counts (0 before it exists).
bucket_works() {
  bench/s3-request.py GET "$endpoint" /bench/site/index.json 2>/dev/null \
    | grep -o '"totals":{"artists":[0-9]*,"works":[0-9]*' | grep -o '[0-9]*$' || echo 0
}
wait_for_bucket_works() {
  local deadline=$(( $(date +%s) + $2 ))
  until [ "$(bucket_works)" = "$1" ]; do
    kill -0 $worker_pid || { cat "$work/worker.log"; exit 1; }
    [ "$(date +%s)" -lt "$deadline" ] || { echo "index.json did not count $1 works within $2 s"; exit 1; }
    sleep 0.2
  done
}
# The gateway's requests logged after line $1, by kind.
requests_since() {
  tail -n +$(($1 + 1)) "$rgw_log" | grep -o 'beast: .*"[A-Z]* /bench[^ ]*' | sed 's/.*"\([A-Z]*\) \(.*\)/\1 \2/' \
    | awk '{ kind = $1; if ($2 ~ /list-type=2/) kind = "LIST"; else if ($2 ~ /\?delete/) kind = "DELETE-BATCH"; count[kind]++ }
      END { for (k in count) printf "%s %d, ", k, count[k] }' | sed 's/, $//'
}

expected=$((pages * works))
lines=$(wc -l <"$rgw_log")
start=$(date +%s.%N)
/usr/bin/time -o "$work/rss" -f '%M' "$bin/artpipe" index-worker --brokers "$brokers" --out s3://bench/site \
  --s3-endpoint "$endpoint" --write-interval 1 --metrics-interval 3600 --log-level warning \
  >"$work/worker.log" 2>&1 &
worker_pid=$!
wait_for_bucket_works "$expected" 1800
end=$(date +%s.%N)
build_requests=$(requests_since "$lines")
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -m); Ceph RGW 18.2 on the same cores"
awk -v n="$expected" -v a="$start" -v b="$end" 'BEGIN {
  printf "index of %d works to the bucket: index.json counting them all after %.1f s (the ~3 s group join included), %.0f works/s\n", n, b - a, n / (b - a) }'
echo "  requests at the gateway meanwhile: $build_requests"

# One new page, after a publish with nothing left to do.
lines=$(wc -l <"$rgw_log")
page_start=$(date +%s.%N)
"$bin/artpipe-probe" produce-pages --brokers "$brokers" --pages 1 --works "$works" --first-page $((pages + 1)) >/dev/null
wait_for_bucket_works $((expected + works)) 120
page_end=$(date +%s.%N)
# The stale objects go after index.json: two more write intervals to see them.
sleep 2.5
awk -v a="$page_start" -v b="$page_end" -v w="$works" 'BEGIN {
  printf "one new page of %d works: in the bucket'"'"'s index.json %.1f s after the producer started\n", w, b - a }'
echo "  requests at the gateway for it (and for the listings of each write interval meanwhile): $(requests_since "$lines")"
pkill -TERM -P $worker_pid; wait $worker_pid || true
echo "  peak RSS of index-worker: $(( $(tail -1 "$work/rss") / 1024 )) MiB"
