# Shared by tests/e2e/inference/t-*.sh: tests/e2e/run/lib.sh (scratch folder,
# run_assay, stores, checks), a free port, and a suite of three cells
# (ISL/OSL/concurrency) against the stand-in server. Source it first:
#   . "$(dirname "$0")/lib.sh" "$@"
. "$(dirname "${BASH_SOURCE[0]}")/../run/lib.sh"
HERE=${ASSAY_SOURCE_DIR:?}/tests/e2e/inference
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# suite FILE [SERVER_FLAGS_JSON] [MODE_OF_C4] [SLEEP]: the suite, its server
# given extra flags (a JSON list tail, e.g. ', "--never-healthy"'), the
# CONC=4 cell's client in MODE (ok, crash, no-result), each client sleeping
# SLEEP seconds.
suite() {
  local file=$1 flags=${2:-} mode=${3:-ok} sleep=${4:-0}
  cat >"$file" <<JSON
{"kind": "inference", "name": "sglang-local", "cluster": "e2e", "revision": "r1",
 "server": {"argv": ["python3", "$HERE/server.py", "--port", "$PORT",
                     "--pidfile", "$T/server-pids.txt"$flags],
            "health": "http://127.0.0.1:$PORT/health",
            "health_timeout_s": 20, "stop_grace_s": 5},
 "combos": {"c1": {"ISL": 128, "OSL": 64, "TP": 1, "CONC": 1, "MODE": "ok"},
            "c4": {"ISL": 128, "OSL": 64, "TP": 1, "CONC": 4, "MODE": "$mode"},
            "c16": {"ISL": 128, "OSL": 64, "TP": 1, "CONC": 16, "MODE": "ok"}},
 "argv": ["python3", "$HERE/client.py", "--port", "$PORT", "--random-input", "{ISL}",
          "--random-output", "{OSL}", "--max-concurrency", "{CONC}", "--num-prompts", "64",
          "--result", "{CASE_DIR}/benchmark_results.log", "--mode", "{MODE}",
          "--sleep", "$sleep"],
 "parser": "sglang",
 "results": ["{CASE_DIR}/benchmark_results.log"],
 "context": {"model": "toy-llama", "precision": "bf16", "tp": 1, "isl": "{ISL}",
             "osl": "{OSL}", "concurrency": "{CONC}", "num_prompts": 64},
 "timeout_s": 120}
JSON
}

# servers_gone: every server process (and child) the runs started has ended.
servers_gone() {
  local p n=0
  for p in $(cat "$T/server-pids.txt"); do
    n=$((n + 1))
    for _ in $(seq 1 50); do pid_gone "$p" && break; sleep 0.1; done
    pid_gone "$p" || fail "server process $p is still alive"
  done
  [ "$n" -gt 0 ] || fail "no server was started"
}
