#!/usr/bin/env bash
# A server on two nodes whose rank 1 never joins: the head's /health never
# answers 2xx, so after health_timeout_s the run is an infrastructure
# failure (exit 5), the first cell infrastructure, the others skipped, and
# the server stopped on both nodes (no process of it left on either). A
# rank that exits before the head is healthy (status 3 on node 2) ends the
# server on every node at once: exit 5 naming the node and its status.
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

rm -f "$T/server-pids.txt"
HEALTH_S=120 nodes_suite suite2.json '--exit 3'
S2=$(store_new s2)
run_assay 5 run --store "$S2" --out out2 suite2.json
expect_grep "the server exited \(exit code 3 on node 1 \($NODE2\)" out.txt
expect_eq "$(q "$S2" "SELECT outcome FROM cases WHERE case_id = 'c1'")" infrastructure "first case"
expect_grep 'node rank 1: failing with status 3' out2/*/server/server.log
servers_gone
run=$(q "$S2" "SELECT run_id FROM runs")
expect_none_left "assay-$run-"
echo ok
