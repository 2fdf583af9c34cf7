#!/usr/bin/env bash
# A throwaway Ceph cluster serving S3: one monitor, one OSD on BlueStore in a sparse file, and
# the RADOS Gateway on 127.0.0.1, all from Debian trixie's packages (Ceph 18) in a debootstrap
# root, with authentication between the daemons off. For the object storage tests: a real S3
# implementation that production clusters run. Needs root (debootstrap, chroot, mount).
#
#   scripts/ceph-rgw.sh setup              make the root (once; again when this recipe changes)
#   scripts/ceph-rgw.sh start NAME KEY SECRET
#                                          a fresh cluster; prints "endpoint: http://127.0.0.1:PORT"
#                                          when the gateway answers, with an S3 user of these keys
#   scripts/ceph-rgw.sh stop NAME          stops that cluster and deletes its data
#   scripts/ceph-rgw.sh gateway-down NAME  kills its gateway (the store refuses connections)
#   scripts/ceph-rgw.sh gateway-up NAME    starts the gateway again on its port, objects kept
#
# Each cluster lives in its own folder under the root (/var/lib/artpipe-ceph/NAME), with its own
# ports, so several run at once. A cluster whose starter has gone (its PARENT, default the
# caller) is stopped by its watchdog: a test run that dies leaves no daemons behind.
set -euo pipefail
cd "$(dirname "$0")/.."
check_name=ceph-rgw
source scripts/debian-root.sh
trap - EXIT

root=$work/ceph-root
packages="ceph-mon ceph-osd radosgw ceph-common uuid-runtime"
prepare_root() {
  mount_into "$1/proc" -t proc proc
  chroot "$1" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends $packages >/dev/null && apt-get clean" || fail "cannot install $packages"
  unmount_all
}

# Under a lock: the tests start several clusters at once, and the first ones find no root yet.
setup() {
  mkdir -p "$work"
  exec 9>"$work/ceph-root.lock"
  flock 9
  require_commands debootstrap=debootstrap
  make_root "$root" "trixie $packages" trixie
  flock -u 9
}

# The daemons read /proc; it stays mounted while any cluster runs.
ensure_proc() {
  mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
  local name=$1 key=$2 secret=$3 parent=${PARENT:-$PPID}
  [[ $name =~ ^[A-Za-z0-9_-]+$ ]] || fail "cluster name '$name': letters, digits, - and _ only"
  setup
  ensure_proc
  local dir=/var/lib/artpipe-ceph/$name
  local host=$root$dir
  rm -rf "$host"
  mkdir -p "$host"/{mon,osd,rgw,run,log}
  local fsid mon_port rgw_port uuid id
  fsid=$(chroot "$root" uuidgen)
  mon_port=$(free_port)
  rgw_port=$(free_port)
  cat >"$host/ceph.conf" <<CONF
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$mon_port
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc secure
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
osd crush chooseleaf type = 0
mon data avail warn = 1
mon data avail crit = 0
run dir = $dir/run
log file = $dir/log/\$name.log
admin socket = $dir/run/\$name.asok
mon data = $dir/mon
osd data = $dir/osd
osd objectstore = bluestore
bluestore block create = true
bluestore block size = 4294967296
osd memory target = 536870912
[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:$rgw_port
rgw data = $dir/rgw
CONF
  local conf=(-c "$dir/ceph.conf")
  in_root() { chroot "$root" "$@"; }
  in_root monmaptool "${conf[@]}" --create --add a "v2:127.0.0.1:$mon_port" --fsid "$fsid" "$dir/monmap" >/dev/null
  in_root ceph-mon "${conf[@]}" --mkfs -i a --monmap "$dir/monmap" 2>>"$host/log/setup.log"
  in_root ceph-mon "${conf[@]}" -i a 2>>"$host/log/setup.log"
  uuid=$(in_root uuidgen)
  id=$(in_root ceph "${conf[@]}" osd new "$uuid")
  in_root ceph-osd "${conf[@]}" -i "$id" --mkfs --osd-uuid "$uuid" >>"$host/log/setup.log" 2>&1
  in_root ceph-osd "${conf[@]}" -i "$id" >>"$host/log/setup.log" 2>&1
  in_root radosgw "${conf[@]}" -n client.rgw >>"$host/log/setup.log" 2>&1
  # The watchdog: the cluster goes when its starter does.
  (
    while kill -0 "$parent" 2>/dev/null && [ -d "$host" ]; do sleep 1; done
    stop "$name" >/dev/null 2>&1
  ) </dev/null >/dev/null 2>&1 &
  disown
  local deadline=$((SECONDS + 120))
  until curl -sf -o /dev/null "http://127.0.0.1:$rgw_port/"; do
    [ $SECONDS -lt $deadline ] || { tail -20 "$host/log/client.rgw.log" >&2; fail "the gateway did not answer within 120 s"; }
    sleep 0.2
  done
  in_root radosgw-admin "${conf[@]}" user create --uid=artpipe --display-name=artpipe \
    --access-key="$key" --secret-key="$secret" >>"$host/log/setup.log" 2>&1 || fail "cannot make the S3 user"
  echo "endpoint: http://127.0.0.1:$rgw_port"
}

stop() {
  local name=$1
  local dir=/var/lib/artpipe-ceph/$name
  [ -n "$name" ] && [ -d "$root$dir" ] || return 0
  # The daemons of this cluster name its configuration on their command lines.
  pkill -f -- "-c $dir/ceph.conf" 2>/dev/null || true
  local deadline=$((SECONDS + 20))
  while pgrep -f -- "-c $dir/ceph.conf" >/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
  pkill -9 -f -- "-c $dir/ceph.conf" 2>/dev/null || true
  rm -rf "${root:?}$dir"
  if [ -z "$(ls -A "$root/var/lib/artpipe-ceph" 2>/dev/null)" ] && mountpoint -q "$root/proc"; then
    umount -l "$root/proc" 2>/dev/null || true
  fi
}

# The gateway alone goes down (connections refused) and comes back on the same port, with
# the cluster and its objects kept: an outage of the store, for the tests.
gateway_down() {
  local dir=/var/lib/artpipe-ceph/$1
  [ -d "$root$dir" ] || fail "no cluster named $1"
  pkill -9 -f -- "radosgw -c $dir/ceph.conf" 2>/dev/null || true
  local deadline=$((SECONDS + 20))
  while pgrep -f -- "radosgw -c $dir/ceph.conf" >/dev/null; do
    [ $SECONDS -lt $deadline ] || fail "the gateway of $1 did not stop"
    sleep 0.1
  done
}

gateway_up() {
  local dir=/var/lib/artpipe-ceph/$1
  [ -d "$root$dir" ] || fail "no cluster named $1"
  local port
  port=$(sed -n 's/^rgw frontends = beast endpoint=127.0.0.1:\([0-9]*\)$/\1/p' "$root$dir/ceph.conf")
  # Without the descriptors this script inherited: a caller that learns of its exit through
  # one of them (Foundation's Process does) would wait for the daemon instead.
  (
    for fd in /proc/$BASHPID/fd/*; do
      fd=${fd##*/}
      [ "$fd" -gt 2 ] && eval "exec $fd>&-"
    done
    exec chroot "$root" radosgw -c "$dir/ceph.conf" -n client.rgw >>"$root$dir/log/setup.log" 2>&1
  )
  local deadline=$((SECONDS + 120))
  until curl -sf -o /dev/null "http://127.0.0.1:$port/"; do
    [ $SECONDS -lt $deadline ] || fail "the gateway of $1 did not come back within 120 s"
    sleep 0.2
  done
}

case ${1:-} in
  setup) setup ;;
  start) [ $# -eq 4 ] || fail "usage: $0 start NAME KEY SECRET"; start "$2" "$3" "$4" ;;
  stop) [ $# -eq 2 ] || fail "usage: $0 stop NAME"; stop "$2" ;;
  gateway-down) [ $# -eq 2 ] || fail "usage: $0 gateway-down NAME"; gateway_down "$2" ;;
  gateway-up) [ $# -eq 2 ] || fail "usage: $0 gateway-up NAME"; gateway_up "$2" ;;
  *) fail "usage: $0 setup | start NAME KEY SECRET | stop NAME | gateway-down NAME | gateway-up NAME" ;;
esac
