#!/usr/bin/env bash
# The training example suite (configs/examples/replay-training.json: two
# replayed training logs with thresholds, loss-curve, convergence and
# regression gates; one combination misses a threshold) run twice, then the
# second run's report: per combination the lm loss chart with the loss-curve
# gate's fitted line and the warm-up shaded, the throughput chart, and the
# threshold table with PASS, FAIL, RECORD and SKIPPED verdicts; junit.xml with
# one testcase per case and per gate (the failed gate a <failure>), valid
# against junit.xsd; the regression gates' verdicts in the history; and the
# page rendered in headless Chromium when it can be installed.
#   training-report.sh ASSAY
set -euo pipefail
assay=$1
src=${ASSAY_SOURCE_DIR:?}
T=$(mktemp -d /tmp/assay-training-report.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
cd "$src"
for rev in t1 t2; do
  set +e
  "$assay" run --quiet --store "$T/a.db" --out "$T/out" --revision "$rev" \
    configs/examples/replay-training.json >"$T/run.out" 2>"$T/run.err"
  rc=$?
  set -e
  [ $rc = 1 ] || { cat "$T/run.out" "$T/run.err" >&2; fail "assay run ($rev) exited $rc, expected 1"; }
done
run=$(sqlite3 -batch -noheader "$T/a.db" "SELECT run_id FROM runs ORDER BY id DESC LIMIT 1")
dir=$T/out/$run
html=$dir/report.html

# Training: both combinations, each with its two charts, fit and warm-up.
section=$(sed -n 's/.*\(<section id="training">.*\)<section id="history">.*/\1/p' "$html")
[ -n "$section" ] || fail "no training section"
count() { grep -o -- "$1" <<<"$section" | wc -l; }
[ "$(count '<h2>Training <small>2 combinations</small>')" = 1 ] || fail "not 2 combinations"
[ "$(count '>lm loss per step</text>')" = 2 ] || fail "not one loss chart per combination"
[ "$(count '>throughput per step</text>')" = 2 ] || fail "not one throughput chart per combination"
[ "$(count '>fit: slope -0.3 per step</text>')" = 1 ] || fail "no fitted line of slope -0.3 (Primus)"
[ "$(count '>fit: slope -0.257 per step</text>')" = 1 ] || fail "no fitted line of slope -0.257 (Megatron)"
[ "$(count '>warm-up</text>')" -ge 2 ] || fail "no warm-up band"
grep -q '<p class="fit">Loss slope <b>-0.3</b> per step' <<<"$section" || fail "no slope line"
# The threshold tables: every verdict kind, the failed one with its numbers.
for v in PASS FAIL RECORD SKIPPED; do
  [ "$(count "<span class=\"b v-$v\">$v</span>")" -ge 1 ] || fail "no $v verdict in the threshold tables"
done
grep -q 'tflops_per_gpu/steady_mean</td><td class="num" data-v="360.025">360.02 TFLOP/s/GPU</td><td><code>&gt;= 400</code></td><td><span class="b v-FAIL">FAIL</span>' <<<"$section" ||
  fail "the failed threshold is not in its table"

# JUnit: one testcase per case and per gate; the failed gate is a failure.
xmllint --noout --schema "$src/tests/report/junit.xsd" "$dir/junit.xml" 2>"$T/xsd.txt" ||
  { cat "$T/xsd.txt" >&2; fail "junit.xml is not valid against junit.xsd"; }
gates=$(sqlite3 -batch -noheader "$T/a.db" "SELECT count(*) FROM verdicts v JOIN cases c ON c.id = v.\"case\"
  JOIN runs r ON r.id = c.run WHERE r.run_id = '$run'")
attr() { xmllint --xpath "string(/testsuites/testsuite/@$1)" "$dir/junit.xml"; }
[ "$(attr tests)" = $((2 + gates)) ] || fail "junit tests $(attr tests), expected 2 cases + $gates gates"
[ "$(attr failures)" = 2 ] || fail "junit failures $(attr failures), expected 2 (the case and its gate)"
xmllint --xpath 'string(//testcase[@name="megatron-mbs8 / threshold / tflops_per_gpu/steady_mean"]/failure/@type)' \
  "$dir/junit.xml" | grep -qx gate || fail "the failed gate is not a <failure type=\"gate\">"

# History: the regression gates' verdicts on their series.
grep -q 'tflops_per_gpu steady_mean · combo=megatron-mbs8</span><span class="b v-SKIPPED">SKIPPED' "$html" ||
  fail "the regression gate's verdict is not on its history chart"

if "$src/tests/report/chrome-check.sh" "$dir" "" "$T/training.png"; then :; else
  rc=$?
  [ $rc = 77 ] || fail "the training report does not render cleanly"
fi
echo ok
