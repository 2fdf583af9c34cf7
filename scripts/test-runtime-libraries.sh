#!/usr/bin/env bash
# Runs the whole test suite against the container image's librdkafka and libvips (Debian
# trixie: 2.8.0 and 8.16), with this machine's Swift toolchain bound into a trixie chroot.
# The developers' machines (bookworm: 2.0.2 and 8.14) run `make test`; this keeps the image's
# versions supported too. Needs root. Work folder: .build-image/ (ignored by git); the build
# goes to .build-trixie/.
set -euo pipefail
cd "$(dirname "$0")/.."
check_name=test-runtime-libraries
# shellcheck source=scripts/debian-root.sh
. scripts/debian-root.sh
root=$work/testroot
require_commands debootstrap=debootstrap
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")

# What `swift build` and the tests need besides the toolchain: the libraries' -dev packages
# and what the toolchain's own programs load.
packages=(librdkafka-dev libvips-dev libsqlite3-dev pkg-config kcat binutils gcc g++ libc6-dev libstdc++-14-dev git
  ca-certificates libcurl4t64 libxml2 zlib1g-dev libuuid1 libsqlite3-0 libedit2 libncurses6 python3 python3-venv)

prepare_root() {
  chroot "$1" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends ${packages[*]} >/dev/null && apt-get clean"
}
make_root "$root" "$(echo "$suite ${packages[*]}" | sha256sum | cut -c1-16)"
# Package URLs resolve as on this machine (a local mirror of github.com, when there is one).
git config --global --get-regexp '^url\.' | while read -r key value; do
  git config --file "$root/etc/gitconfig" --replace-all "$key" "$value" "^$(printf '%s' "$value" | sed 's/[.[\*^$]/\\&/g')\$"
done || true
git config --file "$root/etc/gitconfig" --replace-all safe.directory '*'

mount_into "$root/proc" -t proc proc
mount_into "$root/dev/shm" --bind /dev/shm
mount_into "$root/opt/swift-toolchain" --bind -o ro "$toolchain"
[ -d /opt/swift-packages ] && mount_into "$root/opt/swift-packages" --bind -o ro /opt/swift-packages
mount_into "$root/src" --bind "$PWD"
# This machine's package cache, when it has one: fetched repositories are not fetched again.
if [ -d "$HOME/.cache/org.swift.swiftpm" ]; then
  mount_into "$root/root/.cache/org.swift.swiftpm" --bind "$HOME/.cache/org.swift.swiftpm"
fi

chroot "$root" sh -c 'echo "librdkafka $(pkg-config --modversion rdkafka), libvips $(pkg-config --modversion vips)"'
# No Ceph cluster starts inside the chroot (it makes one of its own with chroot and mount):
# the object store's tests run against moto here, against the gateway in `make test`.
in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/opt/swift-toolchain/bin:/usr/bin:/bin VIPS_WARNING=0 \
    ARTPIPE_TEST_PYTHON=/opt/oai-repo/bin/python3 ARTPIPE_TEST_S3_STORES=moto \
    SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${TEST_WIDTH:-8}" bash -c "cd /src && $*"
}
# The Python packages some tests run (oai-repo's and oaipmh's OAI-PMH servers, botocore's signer, moto's S3
# stand-in; PyPI), in the root's own Python. Their wheels are fetched out here, where pip
# trusts this machine's certificates, for the root's Python, and installed in the root from
# a folder the root sees through /src.
python_packages="oai-repo==0.5.2 oaipmh==4.0.0 botocore==1.44.5 moto[server]==5.2.5"
if ! in_root "/opt/oai-repo/bin/python3 -c 'import oai_repo, oaipmh.server, botocore, moto.server'" >/dev/null 2>&1; then
  set -f  # moto[server] is a package and its extra, not a pattern of file names
  python_version=$(in_root "python3 -c 'import sys; print(\"%d.%d\" % sys.version_info[:2])'")
  wheels=.build-image/oai-repo-wheels
  rm -rf "$wheels"
  python3 -m pip download --quiet --disable-pip-version-check --only-binary=:all: \
    --python-version "$python_version" --implementation cp --platform "manylinux_2_28_$(uname -m)" \
    --platform "manylinux_2_17_$(uname -m)" --platform "manylinux2014_$(uname -m)" -d "$wheels" $python_packages \
    || fail "cannot download $python_packages for the root's Python $python_version"
  in_root "rm -rf /opt/oai-repo && python3 -m venv /opt/oai-repo && /opt/oai-repo/bin/python3 -m pip install \
    --quiet --disable-pip-version-check --no-index --find-links $wheels ${python_packages//[/\\[}" \
    || fail "cannot install $python_packages in the root"
  set +f
fi
log=$work/test-runtime-libraries.log
# SwiftPM can trip over two spellings of one package URL fetched at once into an empty
# cache; a second resolve finds them fetched.
in_root swift package resolve --scratch-path .build-trixie >"$log" 2>&1 \
  || in_root swift package resolve --scratch-path .build-trixie >>"$log" 2>&1 \
  || { tail -20 "$log" >&2; fail "cannot resolve the packages"; }
in_root swift build --build-tests --scratch-path .build-trixie >>"$log" 2>&1 \
  || { grep -E "error:" "$log" | head -20 >&2; fail "build failed (full log: $log)"; }
status=0
# ARTPIPE_TEST_FILTER=REGEX runs only the tests it matches (`swift test --filter`). Otherwise, as
# `make test` does, the suites that keep both cores busy with synchronous work run after the
# rest, in a process of their own.
cpu_bound='Fuzz|HistoryModel'
if [ -n "${ARTPIPE_TEST_FILTER:-}" ]; then
  in_root swift test --skip-build --scratch-path .build-trixie --filter "'$ARTPIPE_TEST_FILTER'" >>"$log" 2>&1 \
    || status=$?
else
  in_root swift test --skip-build --scratch-path .build-trixie --skip "'$cpu_bound'" >>"$log" 2>&1 || status=$?
  if [ "$status" -eq 0 ]; then
    in_root swift test --skip-build --scratch-path .build-trixie --filter "'$cpu_bound'" >>"$log" 2>&1 || status=$?
  fi
fi
grep -E "^(✔|✘|━) Test run|^Executed" "$log" | tail -4
[ "$status" -eq 0 ] || { grep -E "✘" "$log" | head -20 >&2; fail "tests failed (full log: $log)"; }
echo "tests on the image's libraries passed in $(($(date +%s) - started)) s"
