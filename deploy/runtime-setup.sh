#!/bin/sh
# Makes a Debian root filesystem into artpipe's runtime: the packages of runtime-packages.txt
# (beside this script), the non-root user 10001, its data folder and the index worker's state
# folder. Run by deploy/Dockerfile and by scripts/image-check.sh (in a chroot), so the image
# and the check are one.
set -eu
here=$(dirname "$0")
packages=$(grep -v '^[[:space:]]*#' "$here/runtime-packages.txt" | tr '\n' ' ')
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086 # one word per package
apt-get install -y -qq --no-install-recommends $packages >/dev/null
apt-get clean
rm -rf /var/lib/apt/lists/*
id artpipe >/dev/null 2>&1 \
  || useradd --system --uid 10001 --user-group --home-dir /data --no-create-home artpipe
install -d -o artpipe -g artpipe /data
# Where the index worker keeps its state (--state /state: embedded SQLite files, rebuilt from
# Kafka at each start): a volume mounted here starts owned by the user.
install -d -o artpipe -g artpipe /state
