#!/usr/bin/env bash
# Variants on Slurm (docs/suite.md, "Variants"): with job_per "case" the
# variants of a case are still steps of one job (one allocation, the same
# node), interleaved in the store, and the ab gate compares them: the
# candidate's metric is 5% worse, so the run fails the gate.
#   t-variants-one-job.sh ASSAY
. "$(dirname "$0")/lib.sh" "$@"
cat >suite.json <<JSON
{"kind": "command", "name": "var", "cluster": "e2e", "revision": "r1",
 "combos": {"c1": {"SIZE": 1000}, "c2": {"SIZE": 2000}},
 "variants": {"base": {"env": {"FACTOR": "1"}}, "cand": {"env": {"FACTOR": "1.05"}}},
 "argv": ["sh", "-c", "echo \$SLURM_JOB_ID > \$0/job; awk -v s=\$SIZE -v f=\$FACTOR 'BEGIN { printf \"{\\\\\"series\\\\\":{\\\\\"workload\\\\\":\\\\\"w\\\\\"},\\\\\"metric\\\\\":\\\\\"t\\\\\",\\\\\"statistic\\\\\":\\\\\"mean\\\\\",\\\\\"value\\\\\":%.6f,\\\\\"unit\\\\\":\\\\\"s\\\\\",\\\\\"direction\\\\\":\\\\\"lower\\\\\"}\\\\n\", s * f }' > \$0/rows.ndjson", "{CASE_DIR}"],
 "env": {"SIZE": "{SIZE}"},
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"],
 "gates": {"ab": {"baseline": "base", "candidate": "cand", "threshold": 0.02}},
 "launcher": {"type": "slurm", "job_per": "case", "gpu_gres": false, "poll_interval_s": 0.5, "time": "5"}}
JSON
run_assay 1 run --store s.db --out out --quiet suite.json
run=$(q s.db "SELECT run_id FROM runs")
expect_eq "$(q s.db "SELECT group_concat(case_id || ':' || outcome, ' ') FROM (SELECT * FROM cases ORDER BY id)")" \
  "c1.base:passed c1.cand:gate-failed c2.base:passed c2.cand:gate-failed" "cases in order"
for c in c1 c2; do
  a=$(cat "out/$run/$c.base/job") b=$(cat "out/$run/$c.cand/job")
  [ -n "$a" ] || fail "no job id in $c.base"
  expect_eq "$b" "$a" "the job of $c.cand (the job of $c.base)"
  expect_eq "$(squeue -h -t all -n "assay-$run-$c" -o %i | wc -l)" 1 "jobs named assay-$run-$c"
done
[ "$(cat "out/$run/c1.base/job")" != "$(cat "out/$run/c2.base/job")" ] || fail "c1 and c2 shared a job under job_per case"
expect_grep 'ab t/mean: candidate/baseline median 1.0500 over 1 pair' out.txt
echo ok
