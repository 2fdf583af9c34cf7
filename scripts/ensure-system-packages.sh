#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages artpipe builds and runs with, when any is missing.
set -euo pipefail

packages=(pkg-config librdkafka-dev libvips-dev kcat)
missing=()
pkg-config --exists rdkafka 2>/dev/null || missing+=(librdkafka-dev)
pkg-config --exists vips 2>/dev/null || missing+=(libvips-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
command -v kcat >/dev/null 2>&1 || missing+=(kcat)
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing system packages: ${missing[*]}"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "error: need root (or sudo) to install ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
