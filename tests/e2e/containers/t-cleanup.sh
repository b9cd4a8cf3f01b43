#!/usr/bin/env bash
# Issue 35, item 2: what a kill -9 of assay left (a container whose workload
# ignores SIGTERM, the podman client and conmon in the case's cgroup) is
# removed for certain: `assay run --cleanup last` stops the container
# through podman before it ends the cgroup (ending conmon first made
# `podman rm -f` fail: "timed out waiting for file /run/libpod/exits/..."),
# says so by name, leaves no container and runs no case; a second cleanup
# finds nothing. Three kill trials, each cleaned up.
. "$(dirname "$0")/lib.sh" "$@"
cat >suite.json <<JSON
{"kind": "command", "name": "ctr-cleanup", "cluster": "e2e",
 "combos": {"a": {}},
 "container": {"image": "$IMAGE", "pull": "never", "mounts": ["$T/flags:/flags"]},
 "argv": ["sh", "-c", "trap '' TERM; touch /flags/started; sleep 120"],
 "parser": "none"}
JSON
mkdir -p out flags
for trial in 1 2 3; do
  rm -f flags/started s.db
  "$ASSAY" run --store s.db --out out --quiet suite.json >run.txt 2>&1 &
  pid=$!
  for _ in $(seq 1 300); do
    [ -e flags/started ] && break
    sleep 0.1
  done
  [ -e flags/started ] || { cat run.txt >&2; fail "trial $trial: the case never started"; }
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null || true
  run=$(q s.db "SELECT run_id FROM runs")
  [ -n "$(containers_of "$run")" ] || fail "trial $trial: no container was left (nothing to test)"
  run_assay 0 run --store s.db --out out --cleanup last suite.json
  expect_grep "^cleanup: removed container assay-$run-a-a1$" err.txt
  expect_no_containers "$run"
  expect_eq "$(q s.db "SELECT resumed FROM runs")" 0 "trial $trial: no new attempt"
  run_assay 0 run --store s.db --out out --cleanup "$run" suite.json
  ! grep -q "container" err.txt || fail "trial $trial: a second cleanup found a container"
done
run_assay 2 run --store s.db --out out --cleanup last --resume last suite.json
echo ok
