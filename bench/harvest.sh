#!/usr/bin/env bash
# Benchmark: an OAI-PMH harvest through FetchWorker's handler (HTTP, XML, EDM, encode; no
# Kafka) against the sample server on loopback, one page at a time as the cursor dictates.
# Then what a refused resumption token near the end costs, in one slice and in slices of
# --oai-slice-records' default (10,000): requests and records listed again.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product artpipe-probe >/dev/null
bin=$(swift build -c release --show-bin-path)
works=${1:-20000}
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -m)"
"$bin/artpipe-probe" harvest-bench --works "$works"
late=$((works / 200 - 10))
echo "--- a refused token late in the harvest, the harvest in one slice"
"$bin/artpipe-probe" harvest-bench --works "$works" --slice-records 1000000000 --refuse-token "$late"
echo "--- the same, in slices of at most 10,000 records"
"$bin/artpipe-probe" harvest-bench --works "$works" --refuse-token "$late"
