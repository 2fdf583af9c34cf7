#!/usr/bin/env bash
# Builds deploy/Dockerfile as it is, with buildah (no Docker engine, no registry), and runs the
# demo in the image it made:
#   1. makes the base images its FROM lines name, locally: `debian:<release>-slim` from a
#      debootstrapped root made as Debian's slim images are, and `swift:<version>-<release>`
#      from a debootstrapped root with the packages Swift's official image installs and this
#      machine's toolchain (its version must be the one the FROM line names);
#   2. `buildah bud -f deploy/Dockerfile` from the repository root: every step of the file runs.
#      The one thing added is the package mirror: where /opt/swift-packages exists (this
#      machine's copy of GitHub's Swift packages, which git reaches through /etc/gitconfig),
#      both are mounted into the build's steps, so `swift package resolve` resolves as it does
#      here; anywhere else the build reaches GitHub itself;
#   3. in a container of the built image, as its user: `artpipe --version`, its shared
#      libraries, the CA bundle, and the whole demo;
#   4. writes the image to an OCI layout and prints its size.
# Needs root (debootstrap, chroot, buildah). Work folder: .build-image/ (ignored by git).
set -euo pipefail
cd "$(dirname "$0")/.."
check_name=image-check
# shellcheck source=scripts/debian-root.sh
. scripts/debian-root.sh
require_commands debootstrap=debootstrap buildah=buildah

build_from=$(sed -n 's/^FROM \(swift:[^ ]*\) AS build$/\1/p' deploy/Dockerfile)
[[ "$build_from" =~ ^swift:([0-9.]+)-([a-z]+)$ ]] || fail "deploy/Dockerfile has no 'FROM swift:<version>-<release> AS build' stage"
swift_version=${BASH_REMATCH[1]} build_suite=${BASH_REMATCH[2]}
toolchain=${SWIFT_TOOLCHAIN:-$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")}
local_version=$("$toolchain/usr/bin/swift" --version 2>&1 | sed -n 's/^Swift version \([0-9.]*\).*/\1/p' | head -1)
[ "$local_version" = "$swift_version" ] \
  || fail "deploy/Dockerfile builds with Swift $swift_version; the toolchain here ($toolchain) is $local_version"

buildah=(buildah --root "$work/containers" --runroot "$work/containers-run" --storage-driver overlay)

# import_root IMAGE ROOT: commits ROOT's files as IMAGE unless IMAGE already carries ROOT's stamp.
import_root() {
  local image=$1 root=$2 stamp container mountpoint
  stamp=$(cat "$root/.artpipe-stamp")
  [ "$("${buildah[@]}" inspect --type image --format '{{index .ImageAnnotations "artpipe.stamp"}}' "$image" 2>/dev/null)" = "$stamp" ] \
    && return
  echo "importing $root as $image"
  container=$("${buildah[@]}" from scratch)
  mountpoint=$("${buildah[@]}" mount "$container")
  tar -C "$root" --exclude=./.artpipe-stamp -cf - . | tar -C "$mountpoint" -xf -
  "${buildah[@]}" config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --annotation "artpipe.stamp=$stamp" --cmd bash "$container"
  "${buildah[@]}" commit -q "$container" "$image" >/dev/null
  "${buildah[@]}" rm "$container" >/dev/null
}

slim() {
  # As Debian's -slim images are made: no documentation, manual pages or translations.
  printf 'path-exclude %s\n' '/usr/share/doc/*' '/usr/share/man/*' '/usr/share/info/*' '/usr/share/locale/*' \
    '/usr/share/groff/*' '/usr/share/lintian/*' >"$1/etc/dpkg/dpkg.cfg.d/slim-excludes"
  rm -rf "$1"/usr/share/{doc,man,info,locale,groff,lintian}/*
}

# The runtime stage's base.
prepare_root() { slim "$1"; }
make_root "$work/base-$suite" "slim-1"
import_root "docker.io/library/debian:$suite-slim" "$work/base-$suite"

# The build stage's base: what Swift's official image for this release installs, then the toolchain.
swift_packages="binutils ca-certificates git gnupg2 libc6-dev libcurl4-openssl-dev libedit2 libgcc-12-dev"
swift_packages+=" libncurses-dev libpython3-dev libsqlite3-0 libstdc++-12-dev libxml2-dev libz3-dev pkg-config"
swift_packages+=" tzdata unzip zlib1g-dev"
prepare_root() {
  slim "$1"
  mount_into "$1/proc" -t proc proc
  # shellcheck disable=SC2086 # one word per package
  chroot "$1" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $swift_packages && rm -rf /var/lib/apt/lists/*" \
    >"$work/base-swift-packages.log" 2>&1 \
    || { tail -20 "$work/base-swift-packages.log" >&2; fail "cannot install the Swift image's packages in $1"; }
  unmount_all
  tar -C "$toolchain" -cf - usr | tar -C "$1" -xf -
}
make_root "$work/base-swift" "$swift_version-$(echo "$swift_packages" | sha256sum | cut -c1-12)" "$build_suite"
import_root "docker.io/library/$build_from" "$work/base-swift"

echo "buildah bud -f deploy/Dockerfile"
mirror_mounts=()
if [ -d /opt/swift-packages ] && [ -f /etc/gitconfig ]; then
  mirror_mounts=(-v /opt/swift-packages:/opt/swift-packages:ro -v /etc/gitconfig:/etc/gitconfig:ro)
fi
build_started=$(date +%s)
"${buildah[@]}" bud --isolation chroot --network host --pull-never --layers "${mirror_mounts[@]}" \
  -f deploy/Dockerfile -t localhost/artpipe:check . >"$work/dockerfile-build.log" 2>&1 \
  || { tail -40 "$work/dockerfile-build.log" >&2; fail "deploy/Dockerfile did not build"; }
echo "built in $(($(date +%s) - build_started)) s"

container=$("${buildah[@]}" from --pull-never localhost/artpipe:check)
cleanup() { "${buildah[@]}" rm "$container" >/dev/null 2>&1 || true; unmount_all; }
trap cleanup EXIT
as_user() { "${buildah[@]}" run --isolation chroot --network host --user 10001:10001 "$container" -- "$@"; }
as_root() { "${buildah[@]}" run --isolation chroot --network host "$container" -- "$@"; }

[ "$("${buildah[@]}" inspect --type image --format '{{.OCIv1.Config.User}}' localhost/artpipe:check)" = 10001:10001 ] \
  || fail "the image does not run as user 10001"
unresolved=$(as_root ldd /usr/local/bin/artpipe | grep 'not found' || true)
[ -z "$unresolved" ] || fail "shared libraries missing in the image: $unresolved"
as_root test -s /etc/ssl/certs/ca-certificates.crt || fail "no CA bundle at /etc/ssl/certs/ca-certificates.crt"
echo "in the image: $(as_user artpipe --version)"
packages=$(grep -v '^[[:space:]]*#' deploy/runtime-packages.txt | tr '\n' ' ')
# shellcheck disable=SC2086 # one word per package
as_root dpkg-query -W -f '  ${Package} ${Version}\n' $packages

echo "running the demo as user 10001 in a container of the image"
demo_started=$(date +%s)
if ! as_user artpipe demo --out /data/demo --timeout 600 >"$work/demo.log" 2>&1; then
  tail -30 "$work/demo.log" >&2
  mountpoint=$("${buildah[@]}" mount "$container")
  for log in "$mountpoint"/data/demo/logs/*.log; do [ -f "$log" ] && { echo "== $log" >&2; tail -5 "$log" >&2; }; done
  fail "the demo failed in the image"
fi
tail -12 "$work/demo.log"
mountpoint=$("${buildah[@]}" mount "$container")
[ -s "$mountpoint/data/demo/index.json" ] || fail "the demo wrote no index.json"
owner=$(stat -c %u "$mountpoint/data/demo/index.json")
[ "$owner" = 10001 ] || fail "index.json belongs to uid $owner, not the image's user"
# The workers ran on the image's librdkafka, not on one the binary carried or found elsewhere.
packaged=$(as_root dpkg-query -W -f '${Version}' librdkafka1 | cut -d- -f1)
logged=$(grep -ho '"librdkafka.version":"[^"]*"' "$mountpoint"/data/demo/logs/*worker*.log | sort -u | cut -d'"' -f4)
[ "$logged" = "$packaged" ] || fail "the workers logged librdkafka '${logged//$'\n'/, }', the image has $packaged"
echo "the workers ran on librdkafka $logged"
echo "demo in the image: $(($(date +%s) - demo_started)) s"

oci=$work/oci
rm -rf "$oci"
"${buildah[@]}" push -q localhost/artpipe:check "oci:$oci:artpipe" >/dev/null
layers=$(find "$oci/blobs" -type f -size +1M -printf '%s\n' | awk '{ total += $1 } END { printf "%d", total / 1048576 }')
echo "OCI image: $oci (tag artpipe): $layers MiB of compressed layers"
echo "image-check passed in $(($(date +%s) - started)) s"
