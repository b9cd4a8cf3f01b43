#!/usr/bin/env bash
# A server on a subset of the ssh launcher's hosts (docs/inference.md,
# "A server on nodes", server.first_host): three nodes, the server on the
# second and third (first_host 1, nodes 2), so its head and MASTER_ADDR are
# the second host; nothing of it runs on the first, where the cases' clients
# run. Every node's server is stopped at the end.
. "$(dirname "$0")/nodes.sh" "$@"
nodes_up 3
FIRST_HOST=1 nodes_suite suite.json
S=$(store_new s)
run_assay 0 run --store "$S" --out out suite.json
expect_grep '^3 cases: 3 passed$' out.txt
expect_grep "server: started on 2 node\(s\), waiting for http://$NODE2:[0-9]+/health" err.txt
expect_grep 'server: stopped' err.txt
expect_grep "^ssh to $NODE2 $NODE3 \(one process per node; NNODES=2, NODE_RANK 0..1, MASTER_ADDR=$NODE2," out/*/server/command.txt
expect_grep "node rank 1 of 2: init $NODE2:29500" out/*/server/server.log
expect_grep "node rank 1 of 2" out/*/server/nodes/$NODE3.out
expect_grep 'fired up and ready to roll' out/*/server/nodes/$NODE2.out
ls out/*/server/nodes/$NODE1.* >/dev/null 2>&1 && fail "the server ran on the first host ($NODE1)"
[ -e "$T/join/joined-1" ] || fail "rank 1 never joined"
servers_gone
expect_eq "$(wc -l < "$T/server-pids.txt")" 2 "server processes started (one per node)"
run=$(q "$S" "SELECT run_id FROM runs")
expect_none_left "assay-$run-"
expect_eq "$(q "$S" "SELECT count(*) FROM measurements m JOIN series s ON s.id = m.series WHERE s.metric = 'output_throughput'")" 3 "throughput rows"
echo ok
