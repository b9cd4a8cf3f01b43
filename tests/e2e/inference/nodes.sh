# Shared by tests/e2e/inference/t-nodes-*.sh: the inference lib (stand-in
# server and client, a free port) and loopback ssh nodes (tests/e2e/ssh/
# lib.sh: one real sshd per node on 127.0.0.2, 127.0.0.3 ...). Skips (exit
# 77) when sshd is missing. Source it first:
#   . "$(dirname "$0")/nodes.sh" "$@"
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$1"
. "$(dirname "${BASH_SOURCE[0]}")/../ssh/lib.sh" "$1"

# nodes_suite FILE [RANK1_FLAGS] [SLEEP]: a suite whose server runs on two
# nodes (server.nodes 2, through the ssh launcher): on each node the
# stand-in server with sglang's multi-node flags as CVS passes them
# (--nnodes, --node-rank, --dist-init-addr MASTER_ADDR:MASTER_PORT), rank 1
# given RANK1_FLAGS (e.g. --never-join); the head (node 1) answers /health
# once rank 1 joined. Three cells; each client sleeps SLEEP seconds.
# FIRST_HOST=K: the server on the hosts from index K (server.first_host),
# its head NODE(K+1).
nodes_suite() {
  local file=$1 r1=${2:-} sleep=${3:-0} head=$NODE1 first=""
  if [ -n "${FIRST_HOST:-}" ]; then
    eval "head=\$NODE$((FIRST_HOST + 1))"
    first="\"first_host\": $FIRST_HOST, "
  fi
  mkdir -p "$T/join"
  cat >"$T/node-server.sh" <<SH
#!/bin/sh
extra=""
[ "\$NODE_RANK" = 1 ] && extra="$r1"
exec python3 "$HERE/server.py" --host "\$MASTER_ADDR" --port $PORT --nnodes "\$NNODES" \
  --node-rank "\$NODE_RANK" --dist-init-addr "\$MASTER_ADDR:\$MASTER_PORT" \
  --join-dir "$T/join" --pidfile "$T/server-pids.txt" --child \$extra
SH
  chmod +x "$T/node-server.sh"
  cat >"$file" <<JSON
{"kind": "inference", "name": "sglang-nodes", "cluster": "e2e", "revision": "r1",
 "launcher": $(launcher_json),
 "server": {"nodes": 2, $first"argv": ["$T/node-server.sh"],
            "health": "http://$head:$PORT/health",
            "health_timeout_s": ${HEALTH_S:-60}, "stop_grace_s": 5},
 "combos": {"c1": {"ISL": 128, "OSL": 64, "TP": 1, "CONC": 1},
            "c4": {"ISL": 128, "OSL": 64, "TP": 1, "CONC": 4},
            "c16": {"ISL": 128, "OSL": 64, "TP": 1, "CONC": 16}},
 "argv": ["python3", "$HERE/client.py", "--host", "$head", "--port", "$PORT",
          "--random-input", "{ISL}", "--random-output", "{OSL}", "--max-concurrency", "{CONC}",
          "--num-prompts", "64", "--result", "{CASE_DIR}/benchmark_results.log",
          "--sleep", "$sleep"],
 "parser": "sglang",
 "results": ["{CASE_DIR}/benchmark_results.log"],
 "context": {"model": "toy-llama", "precision": "bf16", "tp": 1, "isl": "{ISL}",
             "osl": "{OSL}", "concurrency": "{CONC}", "num_prompts": 64},
 "timeout_s": 120}
JSON
}

# run_killed STORE OUT: `assay run` of suite.json killed (SIGKILL) once a
# cell passed, while its server runs on the nodes; sets RUN to its run id.
run_killed() {
  local pid
  "$ASSAY" run --store "$1" --out "$2" --quiet suite.json >"$T/killed-$2.txt" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do
    [ "$(q "$1" "SELECT count(*) FROM cases WHERE outcome = 'passed'" 2>/dev/null || echo 0)" -ge 1 ] && break
    sleep 0.1
  done
  RUN=$(q "$1" "SELECT run_id FROM runs")
  [ -n "$(labelled "assay-$RUN-server-")" ] || fail "no server process on the nodes (nothing to test)"
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null || true
}

# roles_suite FILE [DECODE_FLAGS]: a suite of role servers ("servers"), one
# node each on three nodes, as a disaggregated SGLang deployment runs:
# prefill on the first host, decode on the second, the router (which the
# clients ask) on the third; each the stand-in server on the node's
# MASTER_ADDR, decode given DECODE_FLAGS (e.g. --never-healthy). Two cells;
# each client sleeps SLEEP seconds.
roles_suite() {
  local file=$1 dflags=${2:-} sleep=${3:-0}
  cat >"$T/role-server.sh" <<SH
#!/bin/sh
exec python3 "$HERE/server.py" --host "\$MASTER_ADDR" --port $PORT \
  --pidfile "$T/server-pids.txt" --child "\$@"
SH
  chmod +x "$T/role-server.sh"
  cat >"$file" <<JSON
{"kind": "inference", "name": "sglang-disagg", "cluster": "e2e", "revision": "r1",
 "launcher": $(launcher_json),
 "servers": [
   {"role": "prefill", "nodes": 1, "first_host": 0, "argv": ["$T/role-server.sh"],
    "health": "http://$NODE1:$PORT/health", "health_timeout_s": 60, "stop_grace_s": 5},
   {"role": "decode", "nodes": 1, "first_host": 1, "argv": ["$T/role-server.sh"$dflags],
    "health": "http://$NODE2:$PORT/health", "health_timeout_s": ${HEALTH_S:-60},
    "stop_grace_s": 5},
   {"role": "router", "nodes": 1, "first_host": 2, "argv": ["$T/role-server.sh"],
    "health": "http://$NODE3:$PORT/health", "health_timeout_s": 60, "stop_grace_s": 5}],
 "combos": {"c1": {"ISL": 128, "OSL": 64, "TP": 1, "CONC": 1},
            "c4": {"ISL": 128, "OSL": 64, "TP": 1, "CONC": 4}},
 "argv": ["python3", "$HERE/client.py", "--host", "$NODE3", "--port", "$PORT",
          "--random-input", "{ISL}", "--random-output", "{OSL}", "--max-concurrency", "{CONC}",
          "--num-prompts", "64", "--result", "{CASE_DIR}/benchmark_results.log",
          "--sleep", "$sleep"],
 "parser": "sglang",
 "results": ["{CASE_DIR}/benchmark_results.log"],
 "context": {"model": "toy-llama", "precision": "bf16", "tp": 1, "isl": "{ISL}",
             "osl": "{OSL}", "concurrency": "{CONC}", "num_prompts": 64},
 "timeout_s": 120}
JSON
}
