# Sourced by bench/index.sh and bench/index-scale.sh: GNU time for peak RSS, the release build,
# a scratch folder removed on exit, start_broker (sets $brokers; 12 partitions; the embedded
# broker, or Tansu with BROKER=tansu: bench/tansu.sh), and waiting for the published manifest
# to count N works.
[ -x /usr/bin/time ] || { sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo); "${sudo[@]}" apt-get install -y -qq time >/dev/null; }
swift build -c release --product artpipe >/dev/null
swift build -c release --product artpipe-probe >/dev/null
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
broker_pid=
worker_pid=
# Each worker may run under GNU time too, which leaves its child running when it is killed:
# the children go first. $worker_pid may name several processes.
trap 'for pid in ${broker_pid:-} $worker_pid; do pkill -9 -P "$pid" 2>/dev/null || true; done; kill $broker_pid $worker_pid 2>/dev/null || true; rm -rf "$work"' EXIT

source bench/tansu.sh
# $worker_kafka: what the index workers add to their Kafka properties on this broker.
worker_kafka=()
start_broker() {
  if [ "${BROKER:-embedded}" = tansu ]; then start_tansu; return; fi
  "$bin/artpipe" broker --partitions "${PARTITIONS:-12}" --bootstrap-file "$work/bootstrap" --log-level warning >/dev/null 2>&1 &
  broker_pid=$!
  for _ in $(seq 100); do [ -s "$work/bootstrap" ] && break; sleep 0.1; done
  brokers=$(cat "$work/bootstrap")
}

# CPU seconds (user + system) a running process has used so far.
cpu_seconds() { awk -v tick="$(getconf CLK_TCK)" '{ printf "%.1f", ($14 + $15) / tick }' "/proc/$1/stat"; }
# The broker's own process: Tansu runs under GNU time.
broker_process() { if [ "${BROKER:-embedded}" = tansu ]; then pgrep -P "$broker_pid"; else echo "$broker_pid"; fi; }

manifest_counts() { grep -q "\"totals\":{\"artists\":[0-9]*,\"works\":$1," "$work/out/index.json" 2>/dev/null; }
manifest_works() { grep -o '"totals":{"artists":[0-9]*,"works":[0-9]*' "$work/out/index.json" 2>/dev/null | grep -o '[0-9]*$'; }
# Waits up to $2 seconds for the manifest to count $1 works; says what it counts if it never does.
wait_for_works() {
  local deadline=$(( $(date +%s) + $2 ))
  until manifest_counts "$1"; do
    kill -0 $worker_pid || { cat "$work/worker.log"; exit 1; }
    if [ "$(date +%s)" -ge "$deadline" ]; then
      echo "the manifest did not reach $1 works within $2 s (it counts $(manifest_works))"; return 1
    fi
    sleep 0.05
  done
}
