#!/usr/bin/env bash
# Interrupting assay (SIGINT as Ctrl-C sends it, SIGTERM) while a case runs
# in a container stops the container too (its PID 1, a shell, ignores the
# SIGTERM; after the grace period it is killed): assay exits 5 and no
# container of the run is left.
. "$(dirname "$0")/lib.sh" "$@"
mkdir flags
cat >suite.json <<JSON
{"kind": "command", "name": "ctr-intr", "cluster": "e2e",
 "combos": {"long": {}},
 "container": {"image": "$IMAGE", "pull": "never", "mounts": ["$T/flags:/flags"]},
 "launcher": {"type": "local", "grace_s": 1},
 "argv": ["sh", "-c", "touch /flags/started; sleep 60; touch /flags/slept"],
 "parser": "none"}
JSON
for sig in INT TERM; do
  rm -rf out s.db* flags/*
  "$ASSAY" run --store s.db --quiet suite.json >out.txt 2>err.txt &
  pid=$!
  for _ in $(seq 1 300); do
    [ -e flags/started ] && break
    sleep 0.1
  done
  [ -e flags/started ] || { cat err.txt >&2; fail "SIG$sig: the case never started"; }
  kill -"$sig" "$pid"
  set +e
  wait "$pid"
  rc=$?
  set -e
  expect_eq "$rc" 5 "exit code after SIG$sig"
  run=$(q s.db "SELECT run_id FROM runs")
  expect_no_containers "$run"
  [ ! -e flags/slept ] || fail "SIG$sig: the workload slept to the end"
  expect_grep '^interrupted: stopping long' err.txt
done
echo ok
