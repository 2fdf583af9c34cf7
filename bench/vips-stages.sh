#!/usr/bin/env bash
# Benchmark: where a thumbnail's time goes inside libvips (bench/vips-stages.c, libvips' C API
# on the thumb-worker benchmark's corpus): header, decode with shrink-on-load, encode with and
# without optimize_coding, the smaller size from the larger's pixels; vector (SIMD) paths off
# and on, twice each. Runs with whichever libvips pkg-config finds: in a Debian trixie root it
# measures the container image's libvips 8.16.
#   bench/vips-stages.sh [IMAGES]
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-20}
command -v gcc >/dev/null 2>&1 || { echo "needs gcc" >&2; exit 1; }
swift build -c release --product artpipe-probe >/dev/null
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export VIPS_WARNING=0
"$bin/artpipe-probe" thumbs make-corpus --out "$work/corpus" --count "$count" >/dev/null
# shellcheck disable=SC2046
gcc -O2 -o "$work/stages" bench/vips-stages.c $(pkg-config --cflags --libs vips)
echo "machine: $(nproc) cores, $(uname -m); corpus: $count JPEGs, half 6000x4000, half 4000x5000, Q90"
for round in 1 2; do
  "$work/stages" "$work/corpus"/*.jpg
  VECTOR=1 "$work/stages" "$work/corpus"/*.jpg
done
