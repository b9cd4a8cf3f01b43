#!/usr/bin/env bash
# A node whose command fails ends the case: its exit code and host are the
# reason (workload-failed, exit 3) and the other node is stopped; a case
# past its timeout is stopped on every node. Nothing is left on any node.
. "$(dirname "$0")/lib.sh" "$@"
nodes_up 2
EXIT_NODE=1 EXIT_CODE=7 long_suite exits
run_assay 3 run --store s.db --out out suite.json
expect_grep "^c1 +workload-failed .*exit code 7 on node 1 \($NODE2\)" out.txt
run=$(q s.db "SELECT run_id FROM runs")
expect_none_left "assay-$run-"
rm -rf out s.db* flags
TIMEOUT_S=3 long_suite timeout
run_assay 3 run --store s.db --out out suite.json
expect_grep '^c1 +workload-failed .*timeout after 3 s' out.txt
run=$(q s.db "SELECT run_id FROM runs")
expect_none_left "assay-$run-"
echo ok
