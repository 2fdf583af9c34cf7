#!/usr/bin/env bash
# Benchmark: an OAI-PMH harvest through FetchWorker's handler (HTTP, XML, EDM, encode; no
# Kafka) against the sample server on loopback, one page at a time as the cursor dictates.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product artpipe-probe >/dev/null
bin=$(swift build -c release --show-bin-path)
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -m)"
"$bin/artpipe-probe" harvest-bench --works "${1:-20000}"
