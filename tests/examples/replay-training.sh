#!/usr/bin/env bash
# configs/examples/replay-training.json end to end, with the fixture logs
# kept in the project (no shared data needed): the Primus combo passes every
# gate, the Megatron combo misses its throughput threshold, so the run exits
# 1 (gate-failed); outcomes, reasons, verdicts and rows are stored, and each
# case folder holds steps.ndjson as `assay parse --steps` prints it.
set -u
src=${ASSAY_SOURCE_DIR:?}
assay=${ASSAY_BIN:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
q() { sqlite3 -batch -noheader "$tmp/s.db" "$1"; }

cd "$src" || fail "no source folder"
"$assay" run --store "$tmp/s.db" --out "$tmp/out" --revision r1 --quiet \
  configs/examples/replay-training.json >"$tmp/summary" 2>"$tmp/err"
rc=$?
cat "$tmp/summary"
[ $rc = 1 ] || { cat "$tmp/err"; fail "assay run exited $rc, expected 1 (gate-failed)"; }
grep -Eq '^primus-mbs1 +passed .* gates: 11 PASS, 14 RECORD, 4 SKIPPED$' "$tmp/summary" ||
  fail "primus-mbs1 line"
grep -Eq '^megatron-mbs8 +gate-failed .* gates: 1 FAIL \(threshold tflops_per_gpu/steady_mean: 360.025 < 400\), 8 PASS, 10 RECORD, 4 SKIPPED$' \
  "$tmp/summary" || fail "megatron-mbs8 line"
grep -q '^exit 1 (gate-failed)$' "$tmp/summary" || fail "exit line"
[ "$(q "SELECT group_concat(case_id || ':' || outcome, ' ') FROM cases")" = "primus-mbs1:passed megatron-mbs8:gate-failed" ] ||
  fail "stored outcomes: $(q "SELECT case_id, outcome FROM cases")"
[ "$(q "SELECT exit_code FROM runs")" = 1 ] || fail "stored exit code"
verdict() { # CASE GATE METRIC -> status value
  q "SELECT v.status || ' ' || coalesce(v.value, '-') FROM verdicts v JOIN cases c ON c.id = v.\"case\"
     WHERE c.case_id = '$1' AND v.gate = '$2' AND v.metric = '$3'"
}
[ "$(verdict megatron-mbs8 threshold tflops_per_gpu/steady_mean)" = "FAIL 360.025" ] || fail "megatron threshold verdict"
[ "$(verdict primus-mbs1 threshold tflops_per_gpu/steady_mean)" = "PASS 508.75" ] || fail "primus threshold verdict"
[ "$(verdict primus-mbs1 loss-curve lm_loss/slope)" = "PASS -0.3" ] || fail "loss-curve verdict"
[ "$(verdict megatron-mbs8 convergence eval_lm_loss/final)" = "PASS 8.69" ] || fail "convergence verdict"
[ "$(verdict primus-mbs1 rolling-mean tflops_per_gpu/steady_mean)" = "SKIPPED 508.75" ] ||
  fail "a first run has no history"
# A threshold verdict names the series of the row it judged.
[ "$(q "SELECT count(*) FROM verdicts v JOIN series s ON s.key = v.series_key WHERE v.gate = 'threshold' AND v.metric = s.metric || '/' || s.statistic")" = \
  "$(q "SELECT count(*) FROM verdicts WHERE gate = 'threshold'")" ] || fail "threshold verdicts without their series"
# Rows: every one with cluster, scale and precision; tokens derived for Megatron (seq_len 4096, 8 GPUs).
[ "$(q "SELECT DISTINCT cluster || ' ' || scale || ' ' || precision FROM series")" = "local 1x8 bf16" ] || fail "series identity"
[ "$(q "SELECT round(m.value) FROM measurements m JOIN series s ON s.id = m.series JOIN cases c ON c.id = m.\"case\"
        WHERE c.case_id = 'megatron-mbs8' AND s.metric = 'tokens_per_gpu' AND s.statistic = 'steady_median'")" = 32768.0 ] ||
  fail "derived tokens"
for c in primus-mbs1:primus-complete megatron-mbs8:megatron-basic; do
  steps=$(ls "$tmp"/out/*/"${c%%:*}"/steps.ndjson) || fail "no steps.ndjson for ${c%%:*}"
  cmp "tests/fixtures/training/${c#*:}.log" "${steps%/steps.ndjson}/stdout.log" || fail "captured log of ${c%%:*}"
  "$assay" parse --steps --seq-len 4096 --world-size 8 "${steps%/steps.ndjson}/stdout.log" >"$tmp/want" ||
    fail "assay parse --steps"
  cmp "$tmp/want" "$steps" || fail "steps.ndjson of ${c%%:*} differs from assay parse --steps"
done
# summary.json carries every verdict too.
sum=$(ls "$tmp"/out/*/summary.json)
[ "$(sqlite3 -batch -noheader :memory: "SELECT group_concat(json_extract(c.value, '$.case_id') || ':' ||
      json_array_length(c.value, '$.verdicts'), ' ') FROM json_each(readfile('$sum'), '$.cases') c")" = \
  "primus-mbs1:29 megatron-mbs8:23" ] || fail "summary.json verdicts"
echo "ok"
