#!/usr/bin/env bash
# While a case's job waits in the queue, the progress says so with Slurm's
# pending reason, then the node it runs on; its duration is split into queue
# time and run time in summary.json, the store and the summary (issue 14,
# defect 9: the queue time used to count as the case's duration), and the
# report. The poll interval (2 s) is longer than the case's step, so the step
# usually ends between two looks: the node it ran on is still shown (a CI run
# once missed it).
#   t-queue-time.sh ASSAY
. "$(dirname "$0")/lib.sh" "$@"
# A blocker holds every CPU of the only node for a few seconds.
cpus=$(sinfo -h -o %c | head -1)
blocker=$(sbatch --parsable --exclusive -n "$cpus" -o /dev/null --wrap 'sleep 6')
for _ in $(seq 1 100); do [ "$(job_field "$blocker" %T)" = RUNNING ] && break; sleep 0.1; done
cat >suite.json <<'JSON'
{"kind": "command", "name": "queue", "cluster": "e2e", "revision": "r1",
 "combos": {"c1": {"I": 1}},
 "argv": ["sh", "-c", "sleep 0.3; echo '{\"series\":{\"workload\":\"w\"},\"metric\":\"m\",\"statistic\":\"mean\",\"value\":1,\"unit\":\"s\",\"direction\":\"lower\"}' > $0/rows.ndjson", "{CASE_DIR}"],
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"],
 "launcher": {"type": "slurm", "gpu_gres": false, "poll_interval_s": 2, "time": "5"}}
JSON
run_assay 0 run --store s.db --out out --quiet suite.json
expect_grep '^\[1/1\] c1: job [0-9]+ PENDING \((Resources|Priority)\) ' err.txt
expect_grep "^\[1/1\] c1: job [0-9]+ RUNNING on $(hostname -s)" err.txt
run=$(q s.db "SELECT run_id FROM runs")
python3 - "out/$run/summary.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["cases"][0]
assert c["queue_s"] >= 2, c          # waited for the blocker
assert c["run_s"] < c["queue_s"], c  # 0.3 s of work
assert abs(c["queue_s"] + c["run_s"] - c["duration_s"]) < 0.01, c
PY
expect_eq "$(q s.db "SELECT queue_s >= 2 AND run_s < queue_s AND abs(queue_s + run_s - duration_s) < 0.01 FROM cases")" 1 "stored split"
expect_grep '^c1 +passed .*\(queued [0-9.]+ s\)$' out.txt
expect_grep ' queued</small>' "out/$run/report.html"
echo ok
