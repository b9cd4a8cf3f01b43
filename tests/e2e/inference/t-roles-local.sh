#!/usr/bin/env bash
# Role servers on assay's machine (docs/inference.md, "Role servers"; no
# nodes): a prefill and a router stand-in, each in a session of its own
# with its pid file in <run>/server-<role>/, started in order, the cells'
# clients against the router, both stopped at the end (the router first),
# no pid file left.
. "$(dirname "$0")/lib.sh" "$@"
PORT2=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >suite.json <<JSON
{"kind": "inference", "name": "sglang-roles-local", "cluster": "e2e", "revision": "r1",
 "servers": [
   {"role": "prefill", "argv": ["python3", "$HERE/server.py", "--port", "$PORT",
                                "--pidfile", "$T/server-pids.txt", "--child"],
    "health": "http://127.0.0.1:$PORT/health", "health_timeout_s": 60, "stop_grace_s": 5},
   {"role": "router", "argv": ["python3", "$HERE/server.py", "--port", "$PORT2",
                               "--pidfile", "$T/server-pids.txt", "--child"],
    "health": "http://127.0.0.1:$PORT2/health", "health_timeout_s": 60, "stop_grace_s": 5}],
 "combos": {"c1": {"ISL": 128, "OSL": 64, "TP": 1, "CONC": 1}},
 "argv": ["python3", "$HERE/client.py", "--port", "$PORT2", "--random-input", "{ISL}",
          "--random-output", "{OSL}", "--max-concurrency", "{CONC}", "--num-prompts", "64",
          "--result", "{CASE_DIR}/benchmark_results.log"],
 "parser": "sglang",
 "results": ["{CASE_DIR}/benchmark_results.log"],
 "context": {"model": "toy-llama", "precision": "bf16", "tp": 1, "isl": "{ISL}",
             "osl": "{OSL}", "concurrency": "{CONC}", "num_prompts": 64},
 "timeout_s": 120}
JSON
S=$(store_new s)
run_assay 0 run --store "$S" --out out suite.json
expect_grep '^1 cases: 1 passed$' out.txt
expect_grep 'prefill: started \(pid [0-9]+\), waiting for http://127.0.0.1:[0-9]+/health' err.txt
expect_eq "$(grep -oE '(prefill|router): (started|stopped)' err.txt | tr '\n' ' ')" \
  "prefill: started router: started router: stopped prefill: stopped " "start and stop order"
expect_grep 'GET /v1/models' out/*/server-router/server.log
ls out/*/server-*/server.pid >/dev/null 2>&1 && fail "a pid file was left"
servers_gone
expect_eq "$(wc -l < "$T/server-pids.txt")" 2 "server processes started (one per role)"
echo ok
