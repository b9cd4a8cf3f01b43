#!/usr/bin/env bash
# Role servers (docs/inference.md, "Role servers"): prefill, decode and a
# router, one node each on three loopback nodes through the ssh launcher,
# started in the suite's order (each healthy before the next starts), the
# cells' clients run against the router, and every role stopped at the end,
# the last started first. Each role's output is in its own folder
# (<run>/server-<role>/server.log) and its processes carry its own label.
. "$(dirname "$0")/nodes.sh" "$@"
nodes_up 3
roles_suite suite.json
S=$(store_new s)
run_assay 0 run --store "$S" --out out suite.json
expect_grep '^2 cases: 2 passed$' out.txt
# Started in order, stopped in reverse order.
expect_eq "$(grep -oE '(prefill|decode|router): (started|stopped)' err.txt | tr '\n' ' ')" \
  "prefill: started decode: started router: started router: stopped decode: stopped prefill: stopped " \
  "start and stop order"
expect_grep "router: started on 1 node\(s\), waiting for http://$NODE3:[0-9]+/health" err.txt
for r in prefill decode router; do
  expect_grep 'fired up and ready to roll' out/*/server-$r/server.log
done
expect_grep "^ssh to $NODE1 \(.*label assay-[^ ]*-server-prefill-a1-nN" out/*/server-prefill/command.txt
expect_grep "^ssh to $NODE2 \(.*label assay-[^ ]*-server-decode-a1-nN" out/*/server-decode/command.txt
expect_grep "^ssh to $NODE3 \(.*label assay-[^ ]*-server-router-a1-nN" out/*/server-router/command.txt
expect_grep 'GET /v1/models' out/*/server-router/server.log
# The cases watched every role's log (a copy in each case's logs/).
expect_eq "$(ls out/*/c1/logs | grep -c server)" 3 "role logs kept by a case"
servers_gone
expect_eq "$(wc -l < "$T/server-pids.txt")" 3 "server processes started (one per role)"
run=$(q "$S" "SELECT run_id FROM runs")
expect_none_left "assay-$run-"
expect_eq "$(q "$S" "SELECT count(*) FROM measurements m JOIN series s ON s.id = m.series WHERE s.metric = 'output_throughput'")" 2 "throughput rows"
echo ok
