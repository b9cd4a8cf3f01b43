#!/usr/bin/env bash
# Issue 35, item 4: a container runtime that fails is infrastructure (exit 5),
# named in the case's reason, and `--resume` runs the case again: podman with
# a missing image (exit 125, "Error: ... image not known"), no podman binary
# at all (not started), and docker without its daemon (exit 125, "docker:
# Cannot connect to the Docker daemon"; only where a docker client is
# installed and no daemon answers). A workload's own exit 125 stays
# workload-failed.
. "$(dirname "$0")/lib.sh" "$@"
later=localhost/assay-e2e:later-$$
suite() { # NAME RUNTIME IMAGE ARGV
  cat <<JSON
{"kind": "command", "name": "$1", "cluster": "e2e", "combos": {"a": {}},
 "container": {"image": "$3", "pull": "never", "runtime": "$2"},
 "argv": ["sh", "-c", "$4"], "parser": "none"}
JSON
}
trap 'podman rmi "$later" >/dev/null 2>&1 || true; cleanup_containers' EXIT
# A missing image: infrastructure; once it is there, --resume runs the case.
suite missing podman "$later" "echo ran" >missing.json
run_assay 5 run --store m.db --out out missing.json
expect_eq "$(q m.db "SELECT outcome FROM cases")" infrastructure "missing image: outcome"
expect_grep "^container runtime podman failed \(exit code 125\): Error: .*image not known" \
  <(q m.db "SELECT reason FROM cases")
podman tag "$IMAGE" "$later"
run_assay 0 run --store m.db --out out --resume last missing.json
expect_eq "$(q m.db "SELECT outcome || ' ' || attempts FROM cases")" "passed 2" "after resume"
# No podman binary: not started, infrastructure.
suite nobinary podman "$IMAGE" "echo ran" >nobinary.json
mkdir -p emptybin
PATH=$T/emptybin run_assay 5 run --store n.db --out out nobinary.json
expect_eq "$(q n.db "SELECT outcome FROM cases")" infrastructure "no podman: outcome"
expect_grep "^container runtime podman: " <(q n.db "SELECT reason FROM cases")
# The workload's own 125, without the runtime's "Error: " line, is the workload's.
suite own podman "$IMAGE" "echo 'fatal: mine' >&2; exit 125" >own.json
run_assay 3 run --store o.db --out out own.json
expect_eq "$(q o.db "SELECT outcome FROM cases")" workload-failed "own 125: outcome"
# docker without a daemon, where a client is installed and no daemon answers.
if command -v docker >/dev/null && ! timeout 20 docker info >/dev/null 2>&1; then
  suite nodaemon docker "$IMAGE" "echo ran" >nodaemon.json
  run_assay 5 run --store d.db --out out nodaemon.json
  expect_grep "^container runtime docker failed \(exit code 125\): docker: " \
    <(q d.db "SELECT reason FROM cases")
fi
echo ok
