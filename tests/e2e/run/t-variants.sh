#!/usr/bin/env bash
# Variants (docs/suite.md, "Variants"): every case runs once per variant and
# repeat, interleaved (A B A B), and the store shows that order; the ab gate
# compares the variants within the run: a candidate 5% slower fails a 2%
# threshold, one 0.1% slower passes; a variant that did not produce a
# measurement fails the case; a run killed with SIGKILL inside a variant's
# case resumes without losing or repeating a case. The workload is
# deterministic: its metric is SIZE * FACTOR, FACTOR set by the variant.
# backends: sqlite (not yet on both: its queries use SQLite's json_extract
# and group_concat)
. "$(dirname "$0")/lib.sh" "$@"
cat >work.sh <<'EOF2'
#!/bin/sh
# work.sh CASE_DIR CASE_ID: step_ms = SIZE * FACTOR / 1000 (and mem_gb unless
# NO_MEM is set); waits for ./go first when the case is $HOLD.
if [ "$2" = "${HOLD:-}" ]; then
  : >"started-$2"
  while [ ! -e go ]; do sleep 0.05; done
fi
awk -v s="$SIZE" -v f="$FACTOR" 'BEGIN {
  printf "{\"series\":{\"workload\":\"toy\"},\"metric\":\"step_ms\",\"statistic\":\"mean\",\"value\":%.6f,\"unit\":\"ms\",\"direction\":\"lower\"}\n", s * f / 1000 }' >"$1/rows.ndjson"
[ -n "${NO_MEM:-}" ] || printf '{"series":{"workload":"toy"},"metric":"mem_gb","statistic":"max","value":%s,"unit":"GB","direction":"lower"}\n' "$SIZE" >>"$1/rows.ndjson"
echo "variant args: $*"
EOF2
# suite FILE FACTOR [CANDIDATE_ENV_EXTRA]: two combos, baseline and candidate, repeat 3;
# the ab gate judges step_ms (METRICS= set empty: every measurement).
suite() {
  local metrics=', "metrics": ["step_ms"]'
  [ -z "${METRICS+set}" ] || metrics=$METRICS
  cat >"$1" <<JSON
{"kind": "command", "name": "ab", "cluster": "e2e", "revision": "r1",
 "combos": {"small": {"SIZE": 1000}, "large": {"SIZE": 4000}},
 "variants": {"baseline": {"env": {"FACTOR": "1"}},
              "candidate": {"env": {"FACTOR": "$2"${3:-}}, "args": ["--candidate"]}},
 "repeat": 3,
 "argv": ["sh", "work.sh", "{CASE_DIR}", "{CASE_ID}"],
 "env": {"SIZE": "{SIZE}", "HOLD": "${HOLD:-}"},
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"],
 "gates": {"ab": {"baseline": "baseline", "candidate": "candidate", "threshold": 0.02$metrics}}}
JSON
}
order="small.baseline.1 small.candidate.1 small.baseline.2 small.candidate.2 small.baseline.3 small.candidate.3 large.baseline.1 large.candidate.1 large.baseline.2 large.candidate.2 large.baseline.3 large.candidate.3"

# 5% slower: the ab gate fails on each case's last candidate repeat.
suite slow.json 1.05
run_assay 1 run --store slow.db --out o --quiet slow.json
expect_eq "$(q slow.db "SELECT group_concat(case_id, ' ') FROM (SELECT case_id FROM cases ORDER BY id)")" \
  "$order" "order of execution in the store"
expect_eq "$(q slow.db "SELECT group_concat(v, ' ') FROM (SELECT json_extract(factors, '\$.variant') || '/' || json_extract(factors, '\$.repeat') AS v FROM cases WHERE case_id LIKE 'small.%' ORDER BY id)")" \
  "baseline/1 candidate/1 baseline/2 candidate/2 baseline/3 candidate/3" "variants interleaved"
expect_eq "$(q slow.db "SELECT case_id || ' ' || status || ' ' || value || ' ' || unit FROM verdicts v JOIN cases c ON c.id = v.\"case\" WHERE gate = 'ab' ORDER BY c.id")" \
  "small.candidate.3 FAIL 1.05 ratio
large.candidate.3 FAIL 1.05 ratio" "ab verdicts (5% slower)"
expect_grep 'candidate/baseline median 1.0500 over 3 pairs \(spread 1.0500..1.0500\): -4.76% \(regression beyond -2%\)' out.txt
expect_grep '^12 cases: 10 passed, 2 gate-failed$' out.txt
# The variant is a series field: each variant its own series.
expect_eq "$(q slow.db "SELECT group_concat(DISTINCT json_extract(fields, '\$.variant')) FROM series")" \
  "baseline,candidate" "variants in the series"
expect_eq "$(q slow.db "SELECT count(*) FROM series WHERE metric = 'step_ms'")" 4 "step_ms series"
# The report shows each variant's series and every case's variant and repeat.
expect_grep 'variant=baseline' o/*/report.html
expect_grep 'variant=candidate' o/*/report.html
expect_grep 'variant</i> candidate</span>' o/*/report.html
# The candidate's overrides reached it: its argv and environment.
expect_grep '^variant args: o/.*/small.candidate.1 small.candidate.1 --candidate$' o/*/small.candidate.1/stdout.log
expect_grep 'FACTOR=1.05' o/*/small.candidate.1/command.txt
expect_grep '^variant args: o/.*/small.baseline.1 small.baseline.1$' o/*/small.baseline.1/stdout.log

# 0.1% slower: passes.
suite near.json 1.001
run_assay 0 run --store near.db --out n --quiet near.json
expect_eq "$(q near.db "SELECT group_concat(status, ' ') FROM verdicts WHERE gate = 'ab'")" "PASS PASS" "ab verdicts (0.1% slower)"
expect_grep 'candidate/baseline median 1.0010 over 3 pairs' n/*/summary.json

# A measurement one variant did not produce fails the case (every metric judged).
METRICS= suite nomem.json 1.0 ', "NO_MEM": "1"'
run_assay 1 run --store nomem.db --out m --quiet nomem.json
expect_eq "$(q nomem.db "SELECT count(*) FROM verdicts WHERE gate = 'ab' AND status = 'FAIL' AND message LIKE 'variant candidate did not produce mem_gb/max in case %.candidate.1 (passed)'")" \
  2 "missing measurement fails"
expect_eq "$(q nomem.db "SELECT count(*) FROM verdicts WHERE gate = 'ab' AND status = 'PASS' AND metric = 'step_ms/mean'")" \
  2 "the measurement both produced passes"

# SIGKILL while a candidate case runs, then --resume: every case once, in order.
HOLD=large.candidate.1 suite hold.json 1.001
"$ASSAY" run --store hold.db --out h --quiet hold.json >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 1200); do [ -e started-large.candidate.1 ] && break; sleep 0.05; done
[ -e started-large.candidate.1 ] || fail "the held case never started"
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
expect_eq "$(q hold.db "SELECT count(*) FROM cases WHERE outcome IS NOT NULL")" 7 "finished before the kill"
: >go
run_assay 0 run --store hold.db --out h --resume last --quiet hold.json
expect_eq "$(q hold.db "SELECT group_concat(case_id, ' ') FROM (SELECT case_id FROM cases ORDER BY id)")" \
  "$order" "order after resume"
expect_eq "$(q hold.db "SELECT count(*) FROM cases WHERE outcome = 'passed'")" 12 "cases after resume"
expect_eq "$(q hold.db "SELECT count(*) FROM (SELECT case_id FROM cases GROUP BY case_id HAVING count(*) > 1)")" 0 "cases stored twice"
expect_eq "$(q hold.db "SELECT count(*) FROM measurements")" 24 "measurements after resume"
expect_eq "$(q hold.db "SELECT attempts FROM cases WHERE case_id = 'large.candidate.1'")" 2 "the killed case ran again"
expect_eq "$(q hold.db "SELECT group_concat(status, ' ') FROM verdicts WHERE gate = 'ab'")" "PASS PASS" "ab after resume"
echo ok
