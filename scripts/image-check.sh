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
check_name=image-check
# shellcheck source=scripts/debian-root.sh
. scripts/debian-root.sh
rootfs=$work/rootfs

build_command="swift build -c release --product artpipe --static-swift-stdlib"
for step in "$build_command" "install -D --strip"; do
  grep -qF -- "$step" deploy/Dockerfile || fail "deploy/Dockerfile no longer builds with: $step"
done
require_commands debootstrap=debootstrap umoci=umoci

prepare_root() {
  # As Debian's -slim images are made: no documentation, manual pages or translations.
  printf 'path-exclude %s\n' '/usr/share/doc/*' '/usr/share/man/*' '/usr/share/info/*' '/usr/share/locale/*' \
    '/usr/share/groff/*' '/usr/share/lintian/*' >"$1/etc/dpkg/dpkg.cfg.d/slim-excludes"
  rm -rf "$1"/usr/share/{doc,man,info,locale,groff,lintian}/*
  mkdir -p "$1/tmp/artpipe-setup"
  cp deploy/runtime-packages.txt deploy/runtime-setup.sh "$1/tmp/artpipe-setup/"
  chroot "$1" /tmp/artpipe-setup/runtime-setup.sh
  rm -rf "$1/tmp/artpipe-setup"
}
# Made again whenever the Dockerfile, the package list or the setup script changes.
make_root "$rootfs" "$(cat deploy/Dockerfile deploy/runtime-packages.txt deploy/runtime-setup.sh | sha256sum | cut -c1-16)"
mount_into "$rootfs/proc" -t proc proc

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
# The workers ran on the image's librdkafka, not on one the binary carried or found elsewhere.
packaged=$(chroot "$rootfs" dpkg-query -W -f '${Version}' librdkafka1 | cut -d- -f1)
logged=$(grep -ho '"librdkafka.version":"[^"]*"' "$rootfs"/data/demo/logs/*worker*.log | sort -u | cut -d'"' -f4)
[ "$logged" = "$packaged" ] || fail "the workers logged librdkafka '${logged//$'\n'/, }', the image has $packaged"
echo "the workers ran on librdkafka $logged"
echo "demo in the image: $(($(date +%s) - demo_started)) s"
rm -rf "$rootfs/data/demo"

# The OCI image: one layer holding the checked root filesystem, the Dockerfile's settings.
oci=$work/oci
rm -rf "$oci" "$work/bundle"
umoci init --layout "$oci"
umoci new --image "$oci:artpipe"
umoci unpack --image "$oci:artpipe" "$work/bundle" >/dev/null
unmount_all
tar -C "$rootfs" --exclude=./.artpipe-stamp -cf - . | tar -C "$work/bundle/rootfs" -xf -
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
