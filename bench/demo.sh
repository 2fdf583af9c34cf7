#!/usr/bin/env bash
# Benchmark: `artpipe demo` end to end (release build) at PAGES pages of WORKS works: works per
# second from the crawl to the last thumbnail indexed, and CPU seconds per process (the
# thumb worker's share of the pipeline's CPU is the share spent thumbnailing and downloading).
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${1:-100}
works=${2:-100}
swift build -c release --product artpipe >/dev/null
bin=$(swift build -c release --show-bin-path)
out=$(mktemp -d)/demo
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -m), $(. /etc/os-release; echo "$PRETTY_NAME")"
"$bin/artpipe" demo --out "$out" --pages "$pages" --page-size "$works" --timeout 3600 | grep -v '^progress:'
rm -rf "$(dirname "$out")"
