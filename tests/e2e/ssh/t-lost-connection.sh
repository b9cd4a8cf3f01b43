#!/usr/bin/env bash
# A node drops out mid-run (its sshd and every session of it killed, as a
# rebooted or unplugged node would): the case is the infrastructure's
# failure (exit 5) naming the host, the other node is stopped, and the
# lost node ends what it ran by itself once its connection is gone: no
# process of the run is left on either node.
. "$(dirname "$0")/lib.sh" "$@"
nodes_up 2
long_suite lost
"$ASSAY" run --store s.db --out out suite.json >out.txt 2>err.txt &
pid=$!
wait_for flags/started-0 flags/started-1
run=$(q s.db "SELECT run_id FROM runs")
[ -n "$(labelled "assay-$run-")" ] || fail "no labelled process on the nodes (nothing to test)"
"$NODES_SH" kill 2
set +e
wait "$pid"
rc=$?
set -e
[ "$rc" = 5 ] || { cat out.txt err.txt >&2; fail "exit $rc, expected 5"; }
expect_grep "^c1 +infrastructure .*ssh: host $NODE2 \(node 1\) dropped out: the connection was lost while the case ran" out.txt
expect_none_left "assay-$run-"
echo ok
