#!/usr/bin/env bash
# Runs the tests whose names end in OnTansu (`make test`'s last step): the workers as processes on
# Tansu, a Kafka-protocol broker apart from librdkafka's mock. librdkafka 2.0.2 cannot talk to
# it, so the test process, and the workers it starts, load a newer one in its place
# (scripts/prepare-tansu.sh). Elsewhere those tests are skipped: ARTPIPE_TEST_TANSU is unset.
set -euo pipefail
cd "$(dirname "$0")/.."
paths=$(scripts/prepare-tansu.sh)
ARTPIPE_TEST_TANSU=$(sed -n 1p <<<"$paths")
export ARTPIPE_TEST_TANSU
export LD_LIBRARY_PATH="$(sed -n 2p <<<"$paths")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
exec "${SWIFT:-swift}" test --skip-build --filter 'OnTansu'
