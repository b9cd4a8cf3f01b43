#!/usr/bin/env bash
# `assay import cvs` on ROCm/cvs dddd914's SGLang single-node config, unchanged
# (tests/fixtures/inference/cvs/SOURCE.md): the suite passes `assay lint` and
# `assay run --dry-run` (its threshold file checked against its cells, CVS's
# accuracy cells left out), and runs end to end here without its container,
# the imported argv kept: a stand-in `python3` first on PATH answers
# `-m sglang.launch_server` with the stand-in server of tests/e2e/inference
# and `-m sglang.bench_serving` with its client (which prints bench_serving's
# result block), and hands anything else to the real python3. Every one of
# the eight cells is gated with CVS's thresholds, the server is stopped.
set -u
assay=${ASSAY_BIN:?}
cd "${ASSAY_SOURCE_DIR:?}" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
c=tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_single.json
"$assay" import cvs --user alice --out "$tmp/suite.json" "$c" >/dev/null 2>"$tmp/err" ||
  { echo "FAIL: import cvs"; cat "$tmp/err"; exit 1; }
"$assay" lint "$tmp/suite.json" >"$tmp/lint" 2>&1 || { echo "FAIL: assay lint on the suite"; cat "$tmp/lint"; fail=1; }
"$assay" run --dry-run --out "$tmp/dry-out" --store "$tmp/dry.db" "$tmp/suite.json" >"$tmp/dry" 2>&1 ||
  { echo "FAIL: assay run --dry-run"; cat "$tmp/dry"; fail=1; }
grep -q 'python3 -m sglang.bench_serving .*--max-concurrency 256 --random-input 1024' "$tmp/dry" ||
  { echo "FAIL: the dry run shows no CONC=256 client"; fail=1; }
# The suite without its container block, on a free port.
real=$(command -v python3)
port=$("$real" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
awk '/^  "container": \{/ {skip = 1} skip && /^  \},?$/ {skip = 0; next} !skip' "$tmp/suite.json" |
  sed "s/\"8000\"/\"$port\"/g; s/127.0.0.1:8000/127.0.0.1:$port/" >"$tmp/local.json"
mkdir -p "$tmp/bin"
e2e=$PWD/tests/e2e/inference
cat >"$tmp/bin/python3" <<STUB
#!/bin/sh
if [ "\$1 \$2" = "-m sglang.launch_server" ]; then
  exec "$real" "$e2e/server.py" --port $port --pidfile "$tmp/server.pid"
fi
if [ "\$1 \$2" = "-m sglang.bench_serving" ]; then
  while [ \$# -gt 0 ]; do
    case \$1 in
      --num-prompts) n=\$2 ;; --max-concurrency) c=\$2 ;;
      --random-input) i=\$2 ;; --random-output) o=\$2 ;;
    esac
    shift
  done
  exec "$real" "$e2e/client.py" --port $port --random-input \$i --random-output \$o \
    --max-concurrency \$c --num-prompts \$n
fi
exec "$real" "\$@"
STUB
chmod +x "$tmp/bin/python3"
PATH="$tmp/bin:$PATH" HF_TOKEN=hf_stand_in_token_5c2e "$assay" run --out "$tmp/out" --store "$tmp/s.db" \
  "$tmp/local.json" >"$tmp/run" 2>&1
rc=$?
# CVS's thresholds judge the stand-in's figures (deterministic: made from the
# cell): output throughput below CVS's minimum in seven cells, MFU too at
# CONC=4, so the run exits 1.
[ $rc = 1 ] || { echo "FAIL: the run exits $rc, not 1 (gate failed)"; cat "$tmp/run"; fail=1; }
grep -q '^8 cases: 1 passed, 7 gate-failed$' "$tmp/run" ||
  { echo "FAIL: not 8 cells gated, 1 passed"; cat "$tmp/run"; fail=1; }
grep -q '^isl1024-osl1024-c4 .*threshold mfu/ratio: 0.00302328 < 0.004' "$tmp/run" ||
  { echo "FAIL: no MFU verdict at CONC=4"; fail=1; }
grep -q 'server: stopped' "$tmp/run" || { echo "FAIL: the server was not stopped"; cat "$tmp/run"; fail=1; }
grep -q hf_stand_in_token_5c2e -r "$tmp/out" && { echo "FAIL: the token was written"; fail=1; }
pid=$(cut -d' ' -f1 "$tmp/server.pid" 2>/dev/null | head -1)
[ -n "$pid" ] || { echo "FAIL: the server never started"; fail=1; }
alive() { s=$(ps -o stat= -p "$1" 2>/dev/null); [ -n "$s" ] && [ "${s#Z}" = "$s" ]; }
for _ in $(seq 120); do [ -n "$pid" ] && alive "$pid" || break; sleep 0.5; done
[ -n "$pid" ] && alive "$pid" && { echo "FAIL: the server still runs"; kill "$pid"; fail=1; }
[ $fail = 0 ] && echo "ok: SGLang config imported, linted, dry-run, run with stand-ins and gated"
exit $fail
