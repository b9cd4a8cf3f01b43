#!/usr/bin/env bash
# `assay import cvs` on ROCm/cvs's vLLM config (model and image filled in:
# tests/fixtures/inference/cvs/SOURCE.md): the suite passes `assay lint` and
# `assay run --dry-run` (its threshold file checked against its cells), and
# runs end to end here without its container (an inference suite: assay
# starts the server, waits for its /health, runs the client per cell), with
# a stand-in `vllm` (serve: the stand-in HTTP server of tests/e2e/inference
# on a free port; bench serve: writes the result fixture made from vLLM's
# serve.py): the shipped thresholds (every value 0) fail the latencies, so
# the run exits 1, the server stopped.
set -u
assay=${ASSAY_BIN:?}
cd "${ASSAY_SOURCE_DIR:?}" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
c=tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_filled.json
"$assay" import cvs --user alice --out "$tmp/suite.json" "$c" >/dev/null 2>"$tmp/err" ||
  { echo "FAIL: import cvs"; cat "$tmp/err"; exit 1; }
"$assay" lint "$tmp/suite.json" >/dev/null 2>&1 || { echo "FAIL: assay lint on the suite"; fail=1; }
"$assay" run --dry-run --out "$tmp/dry-out" --store "$tmp/dry.db" "$tmp/suite.json" >"$tmp/dry" 2>&1 ||
  { echo "FAIL: assay run --dry-run"; cat "$tmp/dry"; fail=1; }
grep -q '"kind": "inference"' "$tmp/suite.json" || { echo "FAIL: not an inference suite"; fail=1; }
# The same suite without its container block, on a free port, the stand-in
# first on PATH.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
awk '/^  "container": \{/ {skip = 1} skip && /^  \},?$/ {skip = 0; next} !skip' "$tmp/suite.json" |
  sed "s/8888/$port/g" >"$tmp/local.json"
mkdir -p "$tmp/bin"
cat >"$tmp/bin/vllm" <<STUB
#!/bin/sh
if [ "\$1" = serve ]; then
  exec python3 "$PWD/tests/e2e/inference/server.py" --port $port --pidfile "$tmp/server.pid"
fi
while [ \$# -gt 0 ]; do [ "\$1" = --result-dir ] && dir=\$2; shift; done
cp "$PWD/tests/fixtures/inference/vllm-llama33-70b-c16.json" "\$dir/results"
STUB
chmod +x "$tmp/bin/vllm"
PATH="$tmp/bin:$PATH" HF_TOKEN=hf_stand_in_token_4b1d "$assay" run --out "$tmp/out" --store "$tmp/s.db" \
  "$tmp/local.json" >"$tmp/run" 2>&1
rc=$?
[ $rc = 1 ] || { echo "FAIL: the run exits $rc, not 1 (gate failed)"; cat "$tmp/run"; fail=1; }
grep -q 'FAIL.*client.mean_ttft_ms' "$tmp/run" ||
  { echo "FAIL: no FAIL verdict on client.mean_ttft_ms"; cat "$tmp/run"; fail=1; }
pid=$(cat "$tmp/server.pid" 2>/dev/null)
[ -n "$pid" ] || { echo "FAIL: the server never started"; fail=1; }
# Gone, or a zombie no one has reaped yet (an orphan under a busy init).
alive() { s=$(ps -o stat= -p "$1" 2>/dev/null); [ -n "$s" ] && [ "${s#Z}" = "$s" ]; }
for _ in $(seq 120); do [ -n "$pid" ] && alive "$pid" || break; sleep 0.5; done
[ -n "$pid" ] && alive "$pid" && { echo "FAIL: the server still runs"; kill "$pid"; fail=1; }
[ $fail = 0 ] && echo "ok: vLLM config imported, linted, dry-run, run with stand-ins and gated"
exit $fail
