#!/usr/bin/env bash
# A job that runs past its Slurm time limit (--time=1, a minute) ends as
# TIMEOUT: workload-failed, failure timeout, the limit in the reason. The
# slowest Slurm test (Slurm counts limits in minutes and checks them about
# every 30 s); the only one that waits for a time limit.
#   t-timeout.sh ASSAY
. "$(dirname "$0")/lib.sh" "$@"
cat >suite.json <<'JSON'
{"kind": "command", "name": "slow", "cluster": "e2e",
 "combos": {"slow": {}},
 "argv": ["sleep", "600"],
 "parser": "none",
 "launcher": {"type": "slurm", "gpu_gres": false, "job_per": "case", "poll_interval_s": 1, "time": "1"}}
JSON
run_assay 3 run --store s.db --quiet suite.json
run=$(q s.db "SELECT run_id FROM runs")
id=$(squeue -h -t all -n "assay-$run-slow" -o %i)
[ -n "$id" ] || fail "no job assay-$run-slow"
expect_eq "$(job_field "$id" %T)" TIMEOUT "job state"
expect_eq "$(q s.db "SELECT outcome || ': ' || reason FROM cases")" \
  "workload-failed: job $id: TIMEOUT: time limit 00:01:00 reached" "stored outcome"
python3 - "out/$run/summary.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["cases"][0]
assert c["outcome"] == "workload-failed" and c["failure"] == "timeout", c
PY
echo ok
