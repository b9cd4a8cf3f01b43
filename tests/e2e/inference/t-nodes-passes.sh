#!/usr/bin/env bash
# A server on two nodes (docs/inference.md, "A server on nodes"): one
# process per node through the ssh launcher, each with its node rank and
# sglang's multi-node flags; assay waits for the head's /health (which
# answers only once rank 1 joined), runs every cell's client against it,
# and stops every node's server (and its child) at the end. Both nodes'
# output is in the run's server.log.
. "$(dirname "$0")/nodes.sh" "$@"
nodes_up 2
nodes_suite suite.json
S=$(store_new s)
run_assay 0 run --store "$S" --out out suite.json
expect_grep '^3 cases: 3 passed$' out.txt
expect_grep 'server: started on 2 node\(s\), waiting for http://127.0.0.2:[0-9]+/health' err.txt
expect_grep 'server: stopped' err.txt
[ -e "$T/join/joined-1" ] || fail "rank 1 never joined"
servers_gone
expect_eq "$(wc -l < "$T/server-pids.txt")" 2 "server processes started (one per node)"
run=$(q "$S" "SELECT run_id FROM runs")
expect_none_left "assay-$run-"
expect_grep 'fired up and ready to roll' out/*/server/server.log
expect_grep "node rank 1 of 2: init $NODE1:29500" out/*/server/server.log
expect_grep "node rank 1 of 2" out/*/server/nodes/$NODE2.out
expect_eq "$(q "$S" "SELECT count(*) FROM measurements m JOIN series s ON s.id = m.series WHERE s.metric = 'output_throughput'")" 3 "throughput rows"
echo ok
