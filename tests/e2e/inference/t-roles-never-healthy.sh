#!/usr/bin/env bash
# Role servers where decode never becomes healthy (docs/inference.md,
# "Role servers"): exit 5 naming the decode server; prefill, already
# started, is stopped; the router is never started; no case runs.
. "$(dirname "$0")/nodes.sh" "$@"
nodes_up 3
HEALTH_S=5 roles_suite suite.json ', "--never-healthy"'
S=$(store_new s)
run_assay 5 run --store "$S" --out out suite.json
expect_grep "the decode server did not become healthy: http://$NODE2:[0-9]+/health did not answer 2xx within 5s \(health_timeout_s\); its output: out/[^ ]*/server-decode/server.log" err.txt
expect_eq "$(grep -oE '(prefill|decode|router): (started|stopped)' err.txt | tr '\n' ' ')" \
  "prefill: started decode: started decode: stopped prefill: stopped " "started and stopped"
[ -e out/*/server-router ] && fail "the router was started"
servers_gone
expect_eq "$(wc -l < "$T/server-pids.txt")" 2 "server processes started (prefill, decode)"
run=$(q "$S" "SELECT run_id FROM runs")
expect_none_left "assay-$run-"
expect_eq "$(q "$S" "SELECT count(*) FROM cases WHERE outcome = 'passed'")" 0 "cases passed"
echo ok
