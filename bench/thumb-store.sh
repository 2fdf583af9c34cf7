#!/usr/bin/env bash
# Benchmark: ThumbWorker publishing to a bucket against the same worker publishing to a folder,
# in one run, release build: the same JPEGs over loopback HTTP through the embedded broker,
# two at a time (--image-concurrency 2), default sizes (200 and 400). The bucket is Ceph's
# RADOS Gateway (scripts/ceph-rgw.sh, a fresh cluster; root), whose access log counts the
# requests each phase sent: new images, then the same pages replayed (thumbnails reused, a
# HEAD each), then replayed again with --touch-after 0s (each reused object copied onto itself).
#   bench/thumb-store.sh [IMAGES] [PAGES]
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-40}
pages=${2:-4}
command -v kcat >/dev/null 2>&1 || apt-get install -y -qq kcat >/dev/null
swift build -c release --product artpipe >/dev/null
swift build -c release --product artpipe-probe >/dev/null
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
cluster=bench-$$
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  scripts/ceph-rgw.sh stop "$cluster" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
export VIPS_WARNING=0 AWS_ACCESS_KEY_ID=BENCHKEY AWS_SECRET_ACCESS_KEY=bench-secret
scripts/ceph-rgw.sh setup >/dev/null
endpoint=$(PARENT=$$ scripts/ceph-rgw.sh start "$cluster" "$AWS_ACCESS_KEY_ID" "$AWS_SECRET_ACCESS_KEY" | sed -n 's/^endpoint: //p')
rgw_log=${IMAGE_CHECK_DIR:-$PWD/.build-image}/ceph-root/var/lib/artpipe-ceph/$cluster/log/client.rgw.log
bench/s3-request.py PUT "$endpoint" /bench >/dev/null

"$bin/artpipe-probe" thumbs make-corpus --out "$work/corpus" --count "$count" >/dev/null
cat "$work/corpus"/*.jpg >/dev/null
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd "$work/corpus" && exec python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) &
pids+=($!)
"$bin/artpipe" broker --partitions 2 --bootstrap-file "$work/bootstrap" >"$work/broker.log" 2>&1 &
pids+=($!)
until [ -s "$work/bootstrap" ] && curl -sf -o /dev/null "http://127.0.0.1:$port/img000.jpg"; do sleep 0.1; done
brokers=$(cat "$work/bootstrap")
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -m); Ceph RGW $endpoint"
echo "corpus: $count JPEGs ($(du -sh "$work/corpus" | cut -f1)); $pages pages; sizes 200 and 400"

# cpu PID: user + system seconds the process has used; ceph_cpu: the cluster's daemons together.
cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$1/stat"; }
ceph_cpu() {
  local total=0 pid
  for pid in $(pgrep -f "artpipe-ceph/$cluster/"); do total=$(echo "$total + $(cpu "$pid")" | bc); done
  echo "$total"
}
# phase NAME FIRST-PAGE FLAGS…: a thumb worker (the group resumes where the last phase ended)
# handles PAGES pages from FIRST-PAGE; prints seconds from producing them to the last
# PageThumbnails' broker timestamp, and the gateway's requests meanwhile by method.
phase() {
  local name=$1 first=$2; shift 2
  local log=$work/$name.log start end before lines
  "$bin/artpipe" thumb-worker --brokers "$brokers" --image-concurrency 2 \
    --allow-host 127.0.0.1 --allow-private-hosts --http-port 0 --http-host 127.0.0.1 \
    --kafka session.timeout.ms=6000 "$@" >"$log" 2>&1 &
  local pid=$!
  pids+=("$pid")
  local http=""
  until [ -n "$http" ]; do http=$(grep -o '"http.port":"[0-9]*"' "$log" | grep -o '[0-9]*' || true); sleep 0.1; done
  until curl -sf -o /dev/null "http://127.0.0.1:$http/readyz"; do sleep 0.1; done
  before=$(kcat -b "$brokers" -C -t artpipe.thumbnails -e -q 2>/dev/null | wc -l)
  lines=$(wc -l <"$rgw_log")
  local ceph_before; ceph_before=$(ceph_cpu)
  start=$(date +%s%3N)
  "$bin/artpipe-probe" produce-pages --brokers "$brokers" --pages "$pages" --works $((count / pages)) \
    --first-page "$first" --image-url "http://127.0.0.1:$port/img%03d.jpg" --images "$count" >/dev/null
  until [ "$(kcat -b "$brokers" -C -t artpipe.thumbnails -e -q 2>/dev/null | wc -l)" -ge $((before + pages)) ]; do
    sleep 0.05
  done
  end=$(kcat -b "$brokers" -C -t artpipe.thumbnails -e -q -f '%T\n' 2>/dev/null | sort -n | tail -1)
  local requests
  requests=$(tail -n +$((lines + 1)) "$rgw_log" | grep -o 'beast: .*"[A-Z]* /bench' | grep -o '"[A-Z]*' | tr -d '"' \
    | sort | uniq -c | awk '{ printf "%s %s, ", $2, $1 }')
  local worker_cpu ceph_used
  worker_cpu=$(cpu "$pid")
  ceph_used=$(echo "$(ceph_cpu) - $ceph_before" | bc)
  kill -TERM "$pid"; wait "$pid" || true
  awk -v a="$start" -v b="$end" -v n="$count" -v name="$name" -v r="${requests%, }" -v w="$worker_cpu" -v c="$ceph_used" \
    'BEGIN { t = (b - a) / 1000; printf "%-26s %6.2f s %5.1f images/s  cpu: worker %5.2f s, ceph %5.2f s  %s\n", name, t, n / t, w, c, r }'
}
# Folder, bucket, folder, bucket: new works each time (the same images), so the pairs show the drift.
folder1=$(phase folder $((1)) --out "$work/out"); echo "$folder1"
bucket1=$(phase bucket $((pages + 1)) --out s3://bench/site --s3-endpoint "$endpoint"); echo "$bucket1"
folder2=$(phase folder $((2 * pages + 1)) --out "$work/out"); echo "$folder2"
bucket2=$(phase bucket $((3 * pages + 1)) --out s3://bench/site --s3-endpoint "$endpoint"); echo "$bucket2"
phase bucket-replayed $((pages + 1)) --out s3://bench/site --s3-endpoint "$endpoint"
phase bucket-replayed-touch-0s $((pages + 1)) --out s3://bench/site --s3-endpoint "$endpoint" --touch-after 0s
awk -v f1="$(echo "$folder1" | awk '{print $2}')" -v b1="$(echo "$bucket1" | awk '{print $2}')" \
  -v f2="$(echo "$folder2" | awk '{print $2}')" -v b2="$(echo "$bucket2" | awk '{print $2}')" \
  'BEGIN { printf "new images, bucket time / folder time: %.2fx and %.2fx\n", b1 / f1, b2 / f2 }'
echo "(each phase: $count images, $((count * 2)) thumbnails, $count manifests, $pages pages)"
