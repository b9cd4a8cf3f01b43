#!/usr/bin/env bash
# A client that crashes (exit 1) is workload-failed (exit 3) for its cell;
# the other cells pass against the same server, which is stopped at the end.
. "$(dirname "$0")/lib.sh" "$@"
suite suite.json '' crash
S=$(store_new s)
run_assay 3 run --store "$S" --out out suite.json
expect_eq "$(q "$S" "SELECT outcome FROM cases WHERE case_id = 'c4'")" workload-failed "crashed cell"
expect_eq "$(q "$S" "SELECT count(*) FROM cases WHERE outcome = 'passed'")" 2 "other cells"
expect_eq "$(wc -l < "$T/server-pids.txt")" 1 "one server for the run"
servers_gone
echo ok
