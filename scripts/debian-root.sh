# Sourced by image-check.sh and test-runtime-libraries.sh: the runtime image's Debian release
# (from deploy/Dockerfile), a debootstrapped root made again only when its recipe changes, and
# mounts undone on exit. The caller sets `check_name` first and runs from the repository root.
work=${IMAGE_CHECK_DIR:-$PWD/.build-image}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
started=$(date +%s)

fail() { echo "$check_name: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "needs root: debootstrap, chroot and mount"
suite=$(sed -n 's/^FROM debian:\([a-z]*\)-slim$/\1/p' deploy/Dockerfile)
[ -n "$suite" ] || fail "deploy/Dockerfile has no 'FROM debian:<release>-slim' runtime stage"

# Installs the commands' Debian packages (command=package ...) that are missing.
require_commands() {
  local missing=() pair
  for pair in "$@"; do command -v "${pair%%=*}" >/dev/null || missing+=("${pair#*=}"); done
  [ ${#missing[@]} -eq 0 ] && return
  echo "installing ${missing[*]}"
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }
}

# debootstraps SUITE (default: the runtime stage's $suite) into ROOT unless ROOT was made from
# STAMP; then runs the caller's `prepare_root ROOT` and records the stamp.
make_root() {
  local root=$1 stamp=$2 suite=${3:-$suite} log
  [ "$(cat "$root/.artpipe-stamp" 2>/dev/null)" = "$stamp" ] && return
  unmount_all
  rm -rf "$root"
  mkdir -p "$work"
  log=$work/$(basename "$root")-debootstrap.log
  echo "debootstrap $suite into $root"
  debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$log" 2>&1 \
    || { tail -20 "$log" >&2; fail "debootstrap $suite failed"; }
  prepare_root "$root"
  echo "$stamp" >"$root/.artpipe-stamp"
}

mounts=()
# mount_into TARGET mount-arguments...: mounted until the script exits.
mount_into() {
  local target=$1
  shift
  mkdir -p "$target"
  mount "$@" "$target"
  mounts+=("$target")
}
unmount_all() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[$i]}" 2>/dev/null || umount -l "${mounts[$i]}" 2>/dev/null || true
  done
  mounts=()
}
trap unmount_all EXIT
