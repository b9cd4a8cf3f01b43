#!/usr/bin/env bash
# An error signature on one node stops the case on every node: the case is
# workload-failed with the matched line (exit 3), and no process of it is
# left on either node: not the child that ignores SIGTERM, not the daemon
# that started a session of its own.
. "$(dirname "$0")/lib.sh" "$@"
nodes_up 2
SIG_NODE=1 long_suite sig
run_assay 3 run --store s.db --out out suite.json
run=$(q s.db "SELECT run_id FROM runs")
expect_grep '^c1 +workload-failed .*signature nccl-error in stdout: rank 3: NCCL error: unhandled system error' out.txt
expect_grep 'NCCL error' "out/$run/c1/nodes/$NODE2.out"
expect_none_left "assay-$run-"
echo ok
