#!/usr/bin/env bash
# Benchmark: FetchWorker's page rate (HTTP, parse, encode; no Kafka) against a loopback
# legacy API that answers each request after 50 ms, at concurrency 1, 4 and 16, with the
# per-host rate limit off and at 20 requests per second.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product artpipe-probe >/dev/null
bin=$(swift build -c release --show-bin-path)
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -m)"
"$bin/artpipe-probe" fetch-bench --latency-ms 50 --pages 160 --concurrency 1 --concurrency 4 --concurrency 16 --rate-limit 20
