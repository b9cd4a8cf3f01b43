#!/usr/bin/env bash
# Ctrl-C (SIGINT) and SIGHUP (a lost terminal session) while a two-node case
# runs: the case is stopped on both nodes, skipped, the run exits 5 with its
# resume command, and nothing of it is left on any node.
. "$(dirname "$0")/lib.sh" "$@"
nodes_up 2
long_suite intr
for sig in INT HUP; do
  rm -rf out s.db* flags/started-*
  "$ASSAY" run --store s.db --out out suite.json >out.txt 2>err.txt &
  pid=$!
  wait_for flags/started-0 flags/started-1
  run=$(q s.db "SELECT run_id FROM runs")
  kill -"$sig" "$pid"
  set +e
  wait "$pid"
  rc=$?
  set -e
  [ "$rc" = 5 ] || { cat out.txt err.txt >&2; fail "SIG$sig: exit $rc, expected 5"; }
  expect_grep '^c1 +skipped .*interrupted while running' out.txt
  expect_grep "interrupted; the unfinished cases run with: assay run --resume $run" err.txt
  expect_none_left "assay-$run-"
done
echo ok
