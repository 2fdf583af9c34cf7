#!/usr/bin/env bash
# Benchmark: WebP beside JPEG. Thumbnails (200 and 400 px) of the images in each folder given,
# and of COUNT of the sample collection's paintings: each format's bytes, at JPEG's quality 82 and
# at several WebP qualities, with each one's peak signal-to-noise ratio against a JPEG at quality
# 100; then the seconds of JPEG alone and of JPEG and WebP, on one thread.
#   bench/thumb-formats.sh [COUNT] [FOLDER…]
set -euo pipefail
cd "$(dirname "$0")/.."

count=${1:-100}
shift || true
swift build -c release --product artpipe-probe >/dev/null
bin=$(swift build -c release --show-bin-path)
export VIPS_WARNING=0
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -m), libvips $(pkg-config --modversion vips)"
for folder in "$@"; do
  echo "== $folder"
  "$bin/artpipe-probe" thumbs formats --input "$folder"
done
echo "== the sample collection's paintings"
"$bin/artpipe-probe" thumbs formats --sample "$count"
