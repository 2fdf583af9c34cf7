#!/usr/bin/env bash
# Builds and runs the container image's root filesystem without a Docker engine:
#   1. debootstraps the runtime stage's distribution (read from deploy/Dockerfile's FROM),
#   2. runs deploy/runtime-setup.sh in it (the Dockerfile's own runtime step and package list),
#   3. builds the release binary with the Dockerfile's build command and copies it in,
#   4. as the image's user (10001), in a chroot: `artpipe --version` and the whole demo,
#   5. assembles an OCI image from that root filesystem with umoci and prints its size.
# A missing shared library, a missing CA bundle or a folder the user cannot write fails here.
# Needs root (debootstrap, chroot, mounting /proc). Work folder: .build-image/ (ignored by git).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
work=${IMAGE_CHECK_DIR:-$PWD/.build-image}
rootfs=$work/rootfs
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

fail() { echo "image-check: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "needs root: debootstrap, chroot and mount"

# The runtime stage's distribution and the build command, as the Dockerfile says them.
suite=$(sed -n 's/^FROM debian:\([a-z]*\)-slim$/\1/p' deploy/Dockerfile)
[ -n "$suite" ] || fail "deploy/Dockerfile has no 'FROM debian:<release>-slim' runtime stage"
build_command="swift build -c release --product artpipe --static-swift-stdlib"
for step in "$build_command" "install -D --strip"; do
  grep -qF -- "$step" deploy/Dockerfile || fail "deploy/Dockerfile no longer builds with: $step"
done

missing=()
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v umoci >/dev/null || missing+=(umoci)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }
fi

cleanup() { mountpoint -q "$rootfs/proc" && umount "$rootfs/proc" || true; }
trap cleanup EXIT

# The root filesystem is made again whenever the package list or the setup script changes.
stamp=$(cat deploy/Dockerfile deploy/runtime-packages.txt deploy/runtime-setup.sh | sha256sum | cut -c1-16)
if [ "$(cat "$rootfs/.artpipe-image-stamp" 2>/dev/null)" != "$stamp" ]; then
  cleanup
  rm -rf "$rootfs"
  mkdir -p "$work"
  echo "debootstrap $suite into $rootfs"
  debootstrap --variant=minbase "$suite" "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; fail "debootstrap $suite failed"; }
  # As Debian's -slim images are made: no documentation, manual pages or translations.
  printf 'path-exclude %s\n' '/usr/share/doc/*' '/usr/share/man/*' '/usr/share/info/*' '/usr/share/locale/*' \
    '/usr/share/groff/*' '/usr/share/lintian/*' >"$rootfs/etc/dpkg/dpkg.cfg.d/slim-excludes"
  rm -rf "$rootfs"/usr/share/{doc,man,info,locale,groff,lintian}/*
  mkdir -p "$rootfs/tmp/artpipe-setup"
  cp deploy/runtime-packages.txt deploy/runtime-setup.sh "$rootfs/tmp/artpipe-setup/"
  chroot "$rootfs" /tmp/artpipe-setup/runtime-setup.sh
  rm -rf "$rootfs/tmp/artpipe-setup"
  echo "$stamp" >"$rootfs/.artpipe-image-stamp"
fi
mountpoint -q "$rootfs/proc" || mount -t proc proc "$rootfs/proc"

echo "building: $build_command"
$build_command >"$work/release-build.log" 2>&1 || { tail -30 "$work/release-build.log" >&2; fail "release build failed"; }
binary="$(swift build -c release --show-bin-path)/artpipe"
install -D --strip -m 0755 "$binary" "$rootfs/usr/local/bin/artpipe"

as_user() {
  chroot --userspec=10001:10001 "$rootfs" /usr/bin/env -i HOME=/data PATH=/usr/local/bin:/usr/bin:/bin \
    VIPS_WARNING=0 sh -c "cd /data && $*"
}

unresolved=$(chroot "$rootfs" ldd /usr/local/bin/artpipe | grep 'not found' || true)
[ -z "$unresolved" ] || fail "shared libraries missing in the image: $unresolved"
[ -s "$rootfs/etc/ssl/certs/ca-certificates.crt" ] || fail "no CA bundle at /etc/ssl/certs/ca-certificates.crt"
version=$(as_user artpipe --version)
echo "in the image: $version"
packages=$(grep -v '^[[:space:]]*#' deploy/runtime-packages.txt | tr '\n' ' ')
# shellcheck disable=SC2086 # one word per package
chroot "$rootfs" dpkg-query -W -f '  ${Package} ${Version}\n' $packages

echo "running the demo as user 10001 in the image's root filesystem"
rm -rf "$rootfs/data/demo"
demo_started=$(date +%s)
if ! as_user artpipe demo --out /data/demo --timeout 600 >"$work/demo.log" 2>&1; then
  tail -30 "$work/demo.log" >&2
  for log in "$rootfs"/data/demo/logs/*.log; do [ -f "$log" ] && { echo "== $log" >&2; tail -5 "$log" >&2; }; done
  fail "the demo failed in the image"
fi
tail -12 "$work/demo.log"
[ -s "$rootfs/data/demo/index.json" ] || fail "the demo wrote no index.json"
owner=$(stat -c %u "$rootfs/data/demo/index.json")
[ "$owner" = 10001 ] || fail "index.json belongs to uid $owner, not the image's user"
grep -q "librdkafka.version" "$rootfs"/data/demo/logs/fetch-worker*.log 2>/dev/null \
  && grep -ho '"librdkafka.version":"[^"]*"' "$rootfs"/data/demo/logs/fetch-worker*.log | head -1
echo "demo in the image: $(($(date +%s) - demo_started)) s"
rm -rf "$rootfs/data/demo"

# The OCI image: one layer holding the checked root filesystem, the Dockerfile's settings.
oci=$work/oci
rm -rf "$oci" "$work/bundle"
umoci init --layout "$oci"
umoci new --image "$oci:artpipe"
umoci unpack --image "$oci:artpipe" "$work/bundle" >/dev/null
umount "$rootfs/proc"
tar -C "$rootfs" --exclude=./.artpipe-image-stamp -cf - . | tar -C "$work/bundle/rootfs" -xf -
umoci repack --image "$oci:artpipe" "$work/bundle" >/dev/null
umoci config --image "$oci:artpipe" --config.user 10001:10001 --config.workingdir /data \
  --config.env VIPS_WARNING=0 --config.exposedports 8080/tcp \
  --config.entrypoint artpipe --config.cmd --help
umoci gc --layout "$oci"
rm -rf "$work/bundle"
layer_bytes=$(find "$oci/blobs" -type f -size +1M -printf '%s\n' | sort -n | tail -1)
echo "OCI image: $oci (tag artpipe): layer $((layer_bytes / 1024 / 1024)) MiB compressed," \
  "root filesystem $(du -sm --exclude=proc "$rootfs" | cut -f1) MiB"
echo "image-check passed in $(($(date +%s) - started)) s"
