#!/usr/bin/env bash
# kill -9 of assay while a two-node case runs: each node ends the case's
# processes by itself once its connection closes (no process left, the
# TERM-ignoring child and the daemon included). A process of the killed
# attempt that a node kept anyway (planted here with the attempt's label,
# as a network partition would leave one) is found by `--resume` on its
# host by the run's label and ended before anything runs again; the case
# then runs once and passes.
. "$(dirname "$0")/lib.sh" "$@"
nodes_up 2
long_suite resume
"$ASSAY" run --store s.db --out out suite.json >run1.txt 2>&1 &
pid=$!
wait_for flags/started-0 flags/started-1
run=$(q s.db "SELECT run_id FROM runs")
[ -n "$(labelled "assay-$run-c1-a1")" ] || fail "no labelled process on the nodes (nothing to test)"
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
expect_none_left "assay-$run-"
ssh -F "$ASSAY_SSH_CONFIG" -o BatchMode=yes "$NODE1" \
  "ASSAY_SSH_LABEL=assay-$run-c1-a1 setsid sleep 303 </dev/null >/dev/null 2>&1 &"
expect_planted "assay-$run-c1-a1"
touch flags/go
run_assay 0 run --store s.db --out out --resume last suite.json
expect_grep "host $NODE1: ended 1 process\(es\) of an earlier attempt" err.txt
grep -q "host $NODE2: ended" err.txt && fail "something was ended on $NODE2, which had nothing left"
expect_grep '^c1 +passed' out.txt
expect_eq "$(q s.db "SELECT case_id || ' ' || outcome || ' ' || attempts FROM cases")" "c1 passed 2" "cases"
expect_none_left "assay-$run-"
echo ok
