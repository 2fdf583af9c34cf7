#!/usr/bin/env bash
# Benchmark: ThumbWorker end to end (pages of images over loopback HTTP through the embedded
# broker: download, header check, decode, encode, SHA-256, write, produce) against
# vipsthumbnail on the same files as local files, two at a time as the worker's
# --image-concurrency 2, release build. One size (400), then the default sizes (200 and 400)
# against vipsthumbnail once per size, in ROUNDS rounds (default 3) that alternate the two
# so a drift in the machine's speed reaches both. Prints each round's times and ratios, the
# run's ratio as the median of its rounds', and the SSIM of the worker's thumbnails against
# vipsthumbnail's for the same size (failing under 0.98), and that of 200 px thumbnails made
# from the worker's 400 px JPEGs instead.
# The worker's time runs from the first page's timestamp to the last PageThumbnails' (the
# probe's own start-up is not the worker's); the topics have `artpipe broker`'s 6 partitions.
# The worker's fetch wait is 50 ms: the embedded broker answers a fetch only when that wait
# runs out, where Kafka answers as soon as records arrive.
#   bench/thumb-worker.sh [IMAGES] [PAGES]
#   THUMB_FLAGS="…" adds thumb-worker flags; WORKER_ENV="NAME=value …" sets the worker's
#   environment (for example VIPS_NOVECTOR=1); PARTITIONS, default 6; ROUNDS, default 3.
#   PROFILE=1 samples the worker with perf in the first round (which slows it: that round's
#   times are not the worker's own) and prints its profile.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-40}
pages=${2:-4}
need=()
command -v vipsthumbnail >/dev/null 2>&1 || need+=(libvips-tools)
command -v kcat >/dev/null 2>&1 || need+=(kcat)
if [ ${#need[@]} -gt 0 ]; then
  sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get install -y -qq "${need[@]}" >/dev/null
fi
python=.build-python/bench/bin/python
if ! "$python" -c 'import skimage' 2>/dev/null; then
  python3 -m venv .build-python/bench
  "$python" -m pip install --quiet --disable-pip-version-check scikit-image
fi

swift build -c release --product artpipe >/dev/null
swift build -c release --product artpipe-probe >/dev/null
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
export VIPS_WARNING=0
"$bin/artpipe-probe" thumbs make-corpus --out "$work/corpus" --count "$count" >/dev/null
cat "$work/corpus"/*.jpg >/dev/null  # both read from the page cache

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 bench/image-server.py "$work/corpus" "$port" >"$work/image-server.log" 2>&1 &
pids+=($!)
"$bin/artpipe" broker --partitions "${PARTITIONS:-6}" --bootstrap-file "$work/bootstrap" >"$work/broker.log" 2>&1 &
pids+=($!)
until [ -s "$work/bootstrap" ] && curl -sf -o /dev/null "http://127.0.0.1:$port/img000.jpg"; do sleep 0.1; done
brokers=$(cat "$work/bootstrap")

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -m), libvips $(pkg-config --modversion vips)"
echo "corpus: $count JPEGs ($(du -sh "$work/corpus" | cut -f1)), half 6000x4000, half 4000x5000, Q90; thumbnails Q82; $pages pages"

# cpu PID: user + system seconds the process has used.
cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$1/stat"; }
# faults PID: minor page faults the process has taken (memory the kernel had to map and zero).
faults() { awk '{ print $10 }' "/proc/$1/stat"; }
# worker SIZES FIRST-PAGE: seconds from producing the pages to the last PageThumbnails' broker
# timestamp. With PROFILE=1, perf samples the worker meanwhile (cpu-clock: this machine has no
# hardware counters) and the top of its profile is printed.
worker() {
  local sizes=$1 first_page=$2 out=$work/worker-${1/,/-} log=$work/worker-${1/,/-}.log before start end
  # shellcheck disable=SC2086
  env ${WORKER_ENV:-} "$bin/artpipe" thumb-worker --brokers "$brokers" --out "$out" --sizes "$sizes" --image-concurrency 2 \
    --allow-host 127.0.0.1 --allow-private-hosts --http-port 0 --http-host 127.0.0.1 \
    --kafka session.timeout.ms=6000 --kafka fetch.wait.max.ms=50 ${THUMB_FLAGS:-} >"$log" 2>&1 &
  local pid=$!
  pids+=("$pid")
  local http=""
  until [ -n "$http" ]; do http=$(grep -o '"http.port":"[0-9]*"' "$log" | grep -o '[0-9]*' || true); sleep 0.1; done
  until curl -sf -o /dev/null "http://127.0.0.1:$http/readyz"; do sleep 0.1; done
  before=$(kcat -b "$brokers" -C -t artpipe.thumbnails -e -q 2>/dev/null | wc -l)
  local perf_pid=""
  if [ -n "${PROFILE:-}" ]; then
    perf record -e cpu-clock -F 499 -g -p "$pid" -o "$work/perf-${1/,/-}.data" >/dev/null 2>&1 &
    perf_pid=$!
  fi
  local server_cpu; server_cpu=$(cpu "${pids[0]}")
  local broker_cpu; broker_cpu=$(cpu "${pids[1]}")
  "$bin/artpipe-probe" produce-pages --brokers "$brokers" --pages "$pages" --works $((count / pages)) \
    --first-page "$first_page" --warm-up-topic bench.warm-up --image-url "http://127.0.0.1:$port/img%03d.jpg" --images "$count" >/dev/null
  # One consumer that waits (a kcat started every few milliseconds would take CPU from the worker).
  if ! timeout 600 kcat -b "$brokers" -C -t artpipe.thumbnails -o beginning -c $((before + pages)) -q >/dev/null 2>&1; then
    echo "the worker did not thumbnail the pages within 10 minutes; its log:" >&2
    tail -20 "$log" >&2
    exit 1
  fi
  start=$(kcat -b "$brokers" -C -t artpipe.pages -e -q -f '%T\n' 2>/dev/null | sort -n | tail -n "$pages" | head -1)
  end=$(kcat -b "$brokers" -C -t artpipe.thumbnails -e -q -f '%T\n' 2>/dev/null | sort -n | tail -1)
  if [ -n "$perf_pid" ]; then kill -INT "$perf_pid"; wait "$perf_pid" || true; fi
  echo "$(cpu "${pids[0]}") - $server_cpu" | bc >"$work/server-cpu-${1/,/-}"
  echo "$(cpu "${pids[1]}") - $broker_cpu" | bc >"$work/broker-cpu-${1/,/-}"
  cpu "$pid" >"$work/worker-cpu-${1/,/-}"
  faults "$pid" >"$work/worker-faults-${1/,/-}"
  kill -TERM "$pid"; wait "$pid" || true
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", (b - a) / 1000 }'
}
# vips SIZE: seconds for vipsthumbnail on every file, two at a time.
vips() {
  local size=$1 out=$work/vips-$1 start end
  mkdir -p "$out"
  start=$(date +%s%3N)
  ls "$work/corpus"/*.jpg | xargs -P 2 -n 1 vipsthumbnail -s "$size" -o "$out/%s.jpg[Q=82,strip]"
  end=$(date +%s%3N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", (b - a) / 1000 }'
}

rounds=${ROUNDS:-3}
ones=() boths=()
for ((round = 0; round < rounds; round++)); do
  # Each round's pages are new works: serials 2·round·count onwards, then (2·round+1)·count.
  one=$(worker 400 $((2 * round * pages + 1)))
  vips400=$(vips 400)
  both=$(worker 200,400 $(((2 * round + 1) * pages + 1)))
  vips200=$(vips 200)
  ones+=("$(awk -v w="$one" -v v="$vips400" 'BEGIN { printf "%.3f", v / w }')")
  boths+=("$(awk -v w="$both" -v a="$vips200" -v b="$vips400" 'BEGIN { printf "%.3f", (a + b) / w }')")
  echo "round $((round + 1)) of $rounds:"
  awk -v w="$one" -v v="$vips400" -v n="$count" -v r="${ones[round]}" 'BEGIN {
    printf "  one size (400):   thumb-worker %.2f s (%.1f images/s) | vipsthumbnail %.2f s: %.2fx\n", w, n / w, v, r }'
  echo "    thumb-worker used $(cat "$work/worker-cpu-400") s of CPU and took $(cat "$work/worker-faults-400") minor page faults" \
    "(start-up included), the loopback HTTP server (bench/image-server.py," \
    "sendfile, standing in for the image host) $(cat "$work/server-cpu-400") s, the embedded broker" \
    "$(cat "$work/broker-cpu-400") s, on the same 2 cores"
  awk -v w="$both" -v a="$vips200" -v b="$vips400" -v r="${boths[round]}" 'BEGIN {
    printf "  two sizes (200, 400): thumb-worker %.2f s | vipsthumbnail once per size %.2f s: %.2fx\n", w, a + b, r }'
  if [ -n "${PROFILE:-}" ]; then
    echo "profile of thumb-worker, one size (cpu-clock samples, self time), by library:"
    perf report -i "$work/perf-400.data" --no-children --sort dso --stdio -g none 2>/dev/null | grep -v '^#' | grep '%' | head -12 || true
    echo "and by function (top 15):"
    perf report -i "$work/perf-400.data" --no-children --sort sym --stdio -g none 2>/dev/null | grep -v '^#' | grep '%' | head -15 || true
    mkdir -p .build/bench && cp "$work"/perf-*.data .build/bench/
    echo "perf data kept in .build/bench/ (perf report -i .build/bench/perf-400.data)"
    PROFILE="" profiled=1  # the other rounds run unsampled
  fi
done
# median VALUE…: the middle value, or the mean of the middle two.
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "this run, median of $rounds rounds: one size $(median "${ones[@]}")x (${ones[*]}), two sizes $(median "${boths[@]}")x (${boths[*]})"
if [ -n "${profiled:-}" ]; then echo "  (round 1 ran under perf: its ratios are not the worker's own)"; fi
# The way the worker does not take, for its figure: the 200 px size made from the 400 px JPEG.
mkdir -p "$work/from-jpeg"
for ((serial = count; serial < 2 * count; serial++)); do  # the first round's, which the SSIM reads
  for file in "$work"/worker-200-400/thumbs/400/*/BENCH-"$serial".*.jpg; do
    vipsthumbnail "$file" -s 200 -o "$work/from-jpeg/%s.jpg[Q=82,strip]"
  done
done
"$python" - "$work" "$count" <<'PYTHON'
import glob, sys
import numpy as np
from skimage.io import imread
from skimage.metrics import structural_similarity

work, count = sys.argv[1], int(sys.argv[2])


def scores(pattern, size):
    """SSIM of each thumbnail matching pattern (by serial) against vipsthumbnail's of its file."""
    result = []
    # The second run's works are serials count … 2·count−1, each showing img<serial mod count>.
    for serial in range(count, 2 * count):
        (ours,) = glob.glob(pattern.format(serial=serial))
        a, b = imread(ours), imread(f"{work}/vips-{size}/img{serial % count:03d}.jpg")
        height, width = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
        result.append(structural_similarity(a[:height, :width], b[:height, :width], channel_axis=2))
    return np.array(result)


for size in (200, 400):
    found = scores(f"{work}/worker-200-400/thumbs/{size}/*/BENCH-{{serial}}.*.jpg", size)
    print(f"SSIM against vipsthumbnail at {size}: mean {found.mean():.4f}, lowest {found.min():.4f}")
    # The stated bound (docs/benchmarks.md): every thumbnail at least this close to vipsthumbnail's.
    if found.min() < 0.98:
        sys.exit(f"SSIM at {size} below the bound of 0.98")
second = scores(f"{work}/from-jpeg/BENCH-{{serial}}.*.jpg", 200)
print(f"  200 px made from the 400 px JPEG instead (a second generation): mean {second.mean():.4f}, "
      f"lowest {second.min():.4f}")
PYTHON
