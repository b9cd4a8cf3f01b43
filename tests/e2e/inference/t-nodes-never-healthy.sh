#!/usr/bin/env bash
# A server on two nodes whose rank 1 never joins: the head's /health never
# answers 2xx, so after health_timeout_s the run is an infrastructure
# failure (exit 5), the first cell infrastructure, the others skipped, and
# the server stopped on both nodes (no process of it left on either).
. "$(dirname "$0")/nodes.sh" "$@"
nodes_up 2
HEALTH_S=3 nodes_suite suite.json --never-join
S=$(store_new s)
run_assay 5 run --store "$S" --out out suite.json
expect_grep 'did not answer 2xx within 3s \(health_timeout_s\)' out.txt
expect_eq "$(q "$S" "SELECT outcome FROM cases WHERE case_id = 'c1'")" infrastructure "first case"
expect_eq "$(q "$S" "SELECT count(*) FROM cases WHERE outcome = 'skipped'")" 2 "cases not run"
expect_eq "$(wc -l < "$T/server-pids.txt")" 2 "server processes started (one per node)"
servers_gone
run=$(q "$S" "SELECT run_id FROM runs")
expect_none_left "assay-$run-"
echo ok
