#!/usr/bin/env bash
# Benchmark: what Tansu (bench/tansu.sh) itself costs a message on its way, as a partition grows:
# a produce's acknowledgement, the time from it until a consumer waiting at the end has the
# message (fetch.wait.max.ms=50, as bench/index.sh sets), and a question for the partition's end
# (ListOffsets, as the index's publisher asks twice on a new page's path, from a client that is
# not fetching). Then the same on a partition of 10,000 and 30,000 batches of one message, and
# the question alone at 100,000 (a consumer waiting there kept Tansu busy for many minutes),
# since what a request costs follows the batches a partition holds. One partition,
# 60-byte lz4 messages in batches of 200, measured at 0, 100,000, 400,000 and 800,000 messages
# (nine times each; medians and the worst).
# A page's path in bench/index.sh crosses three such topics and two such producers.
#   bench/tansu-latency.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
broker_pid=
trap 'pkill -9 -P "$broker_pid" 2>/dev/null || true; kill "$broker_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
source bench/tansu.sh
prepare_tansu
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$tansu_binary" broker --listener-url "tcp://127.0.0.1:$port" \
  --advertised-listener-url "tcp://127.0.0.1:$port" --storage-engine memory://tansu/ >"$work/broker.log" 2>&1 &
broker_pid=$!
for _ in $(seq 100); do grep -q "ready in" "$work/broker.log" && break; sleep 0.1; done
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -m)"
PYTHONPATH="$tansu_folder" python3 - "127.0.0.1:$port" <<'PY'
import os, sys, time
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic
brokers = sys.argv[1]
admin = AdminClient({"bootstrap.servers": brokers})  # kept: the request dies with its client
admin.create_topics([NewTopic("latency", 1, 1)])["latency"].result()
producer = Producer({"bootstrap.servers": brokers, "linger.ms": 5, "compression.type": "lz4", "batch.num.messages": 200})
partition = TopicPartition("latency", 0)
print(f"librdkafka {__import__('confluent_kafka').libversion()[0]}")

asker = Consumer({"bootstrap.servers": brokers, "group.id": "latency-ends"})

def ask_end(partition):
    times = []
    for _ in range(9):
        start = time.time()
        asker.get_watermark_offsets(partition, cached=False)
        times.append(time.time() - start)
    return times

def measure(label, topic="latency", producer=producer):
    partition = TopicPartition(topic, 0)
    consumer = Consumer({"bootstrap.servers": brokers, "group.id": f"latency-{topic}-{label}", "fetch.wait.max.ms": 50,
                         "enable.auto.commit": False})
    _, high = consumer.get_watermark_offsets(partition)
    consumer.assign([TopicPartition(topic, 0, high)])
    while consumer.poll(1.0) is not None:
        pass
    acks, hops = [], []
    ends = ask_end(partition)
    for _ in range(9):
        time.sleep(0.1)
        start = time.time()
        producer.produce(topic, os.urandom(60))
        producer.flush()
        acked = time.time()
        while consumer.poll(5) is None:
            pass
        acks.append(acked - start)
        hops.append(time.time() - acked)
    consumer.close()
    row = lambda values: f"{sorted(values)[4] * 1000:.1f} (worst {max(values) * 1000:.1f})"
    print(f"{label}: produce acknowledged {row(acks)} ms; then consumed {row(hops)} ms; "
          f"its end asked {row(ends)} ms", flush=True)

written = 0
for size in (0, 100_000, 400_000, 800_000):
    while written < size:
        for _ in range(10_000):
            producer.produce("latency", os.urandom(60))
        producer.flush()
        written += 10_000
    measure(f"{size:>9,} messages")

admin.create_topics([NewTopic("singles", 1, 1)])["singles"].result()
single = Producer({"bootstrap.servers": brokers, "linger.ms": 0, "batch.num.messages": 1, "compression.type": "lz4"})
written = 0
for size in (10_000, 30_000, 100_000):
    while written < size:
        for _ in range(5_000):
            single.produce("singles", os.urandom(60))
            single.poll(0)
        single.flush()
        written += 5_000
    if size < 100_000:
        measure(f"{size:>9,} batches of one message", "singles", single)
        written += 9
    else:
        times = sorted(ask_end(TopicPartition("singles", 0)))
        print(f"{size:>9,} batches of one message: its end asked {times[4] * 1000:.1f} (worst {max(times) * 1000:.1f}) ms")
PY
