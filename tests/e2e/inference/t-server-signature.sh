#!/usr/bin/env bash
# The server's output is watched while each case runs: an error signature
# it prints (here a HIP out-of-memory error) fails the case that was running
# (workload-failed, exit 3) and names the server's log.
. "$(dirname "$0")/lib.sh" "$@"
suite suite.json ', "--log-error", "RuntimeError: HIP out of memory. Tried to allocate 2.00 GiB"' ok 1
S=$(store_new s)
run_assay 3 run --store "$S" --out out suite.json
expect_eq "$(q "$S" "SELECT outcome FROM cases WHERE case_id = 'c1'")" workload-failed "first cell"
expect_grep 'out of memory' out.txt
servers_gone
echo ok
