#!/usr/bin/env bash
# The Primus smoke example end to end through `assay run`: the command suite
# configs/examples/primus-smoke.json replays the conformance log as its
# workload; the case must pass every gate (thresholds of
# primus-smoke-thresholds.json, loss curve, convergence), with the verdicts
# and rows stored and the per-step records in the case folder. The log is
# the project's copy in tests/conformance.
set -u
src=${ASSAY_SOURCE_DIR:?}
assay=${ASSAY_BIN:?}
conf=${ASSAY_CONFORMANCE_DIR:-$src/tests/conformance}
log=$conf/training-logs/primus_megatron_smoke_tail_mi355x.log
if [ ! -r "$log" ]; then
  echo "FAIL: $log not found (the conformance data is kept in tests/conformance)"
  exit 1
fi
export ASSAY_CONFORMANCE_DIR=$conf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
q() { sqlite3 -batch -noheader "$tmp/s.db" "$1"; }

cd "$src" || fail "no source folder"
"$assay" run --store "$tmp/s.db" --out "$tmp/out" --revision smoke --quiet \
  configs/examples/primus-smoke.json >"$tmp/summary" 2>"$tmp/err"
rc=$?
cat "$tmp/summary"
[ $rc = 0 ] || { cat "$tmp/err"; fail "assay run exited $rc, expected 0"; }
grep -Eq '^bf16-mbs1 +passed .*gates: [0-9]+ PASS' "$tmp/summary" || fail "the case did not pass its gates"
[ "$(q "SELECT outcome FROM cases")" = passed ] || fail "stored outcome is not passed"
q "SELECT status || ' ' || gate || ' ' || metric || ' ' || coalesce(value, '-') FROM verdicts ORDER BY seq" >"$tmp/verdicts"
cat "$tmp/verdicts"
for want in 'PASS run completion' 'PASS run finite' \
  'PASS threshold tflops_per_gpu/steady_mean 502.05$' \
  'PASS threshold elapsed_ms_per_iter/steady_mean 537.9125$' \
  'PASS threshold tokens_per_gpu/steady_mean 7673.2125$' \
  'PASS threshold mem_usage_ratio/max 0.5933$' \
  'PASS threshold lm_loss/last 9.258826$' \
  'SKIPPED threshold eval_lm_loss/last -$' \
  'RECORD threshold tflops_per_gpu/running_avg 502.1$' \
  'PASS loss-curve lm_loss/slope -0.3228' \
  'PASS convergence lm_loss/final 9.258826$'; do
  grep -Eq "^$want" "$tmp/verdicts" || fail "no stored verdict matching: $want"
done
[ "$(q "SELECT count(*) FROM verdicts WHERE status = 'FAIL'")" = 0 ] || fail "a verdict failed"
# Every stored series names cluster, scale and precision (from the suite and the combo).
[ "$(q "SELECT DISTINCT cluster || ' ' || scale || ' ' || precision FROM series")" = "mi355x-smoke 1x8 bf16" ] ||
  fail "series identity: $(q "SELECT DISTINCT cluster, scale, precision FROM series")"
steps=$(ls "$tmp"/out/*/bf16-mbs1/steps.ndjson) || fail "no steps.ndjson"
cmp "$log" "${steps%/steps.ndjson}/stdout.log" || fail "the captured log is not the replayed one"
"$assay" parse --input-format primus --steps "${steps%/steps.ndjson}/stdout.log" >"$tmp/want-steps" ||
  fail "assay parse --steps failed"
cmp "$tmp/want-steps" "$steps" || fail "steps.ndjson differs from assay parse --steps"
[ "$(wc -l <"$steps")" = 10 ] || fail "expected 10 steps"
echo "ok"
