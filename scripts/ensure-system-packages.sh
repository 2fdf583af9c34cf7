#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages artpipe builds and runs with, and the Python server the
# tests harvest from, when any is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(pkg-config librdkafka-dev libvips-dev libsqlite3-dev kcat)
missing=()
pkg-config --exists rdkafka 2>/dev/null || missing+=(librdkafka-dev)
pkg-config --exists vips 2>/dev/null || missing+=(libvips-dev)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
command -v kcat >/dev/null 2>&1 || missing+=(kcat)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing system packages: ${missing[*]}"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "error: need root (or sudo) to install ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi

# The independent OAI-PMH servers the tests harvest from (oai-repo and oaipmh, PyPI), in a virtual
# environment inside the checkout: Debian's own Python refuses system-wide pip installs.
venv=.build-python
# Beside it, botocore (an independent SigV4 signer, for the S3 signer's tests) and moto (a light
# S3 stand-in, for the S3 client's quick tests).
python_packages=(oai-repo==0.5.2 oaipmh==4.0.0 botocore==1.44.5 "moto[server]==5.2.5")
if ! "$venv/bin/python3" -c 'import oai_repo, oaipmh.server, botocore, moto.server' >/dev/null 2>&1; then
  if ! python3 -m venv --help >/dev/null 2>&1; then
    echo "installing system packages: python3 python3-venv"
    sudo=()
    [ "$(id -u)" -ne 0 ] && sudo=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends python3 python3-venv >/dev/null
  fi
  echo "installing ${python_packages[*]} into $venv"
  [ -x "$venv/bin/python3" ] || python3 -m venv "$venv"
  "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check "${python_packages[@]}"
fi
