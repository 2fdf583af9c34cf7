#!/usr/bin/env bash
# Benchmark: the assembly of the files that name every artist (index.json, gallery/artists.js,
# the letter pages, the front page), without a broker: bench/index.sh's collection (37 works an
# artist) at each size, its shard summaries made in memory, assembled once, then again after
# each of PAGES new pages of 100 works, keeping what the publisher keeps between rounds.
#   bench/assembly.sh [PAGES] [WORKS...]
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${1:-10}
shift || true
swift build -c release --product artpipe-probe >/dev/null
bin=$(swift build -c release --show-bin-path)
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000000 4000000 10000000)
for works in "${sizes[@]}"; do
  "$bin/artpipe-probe" assembly --works "$works" --pages "$pages"
done
