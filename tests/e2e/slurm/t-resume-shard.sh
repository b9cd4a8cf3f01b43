#!/usr/bin/env bash
# One job per shard, assay killed with SIGKILL while the shard's second case
# runs (issue 14, defect 1): the resume cancels the killed attempt's job
# (and says so) before it submits, its job gets a spool folder of its own
# (slurm/a2/...-a2.d), so the first attempt's step-N.done and end markers
# cannot end its steps, and the resumed cases run to their real outcome.
# A job of the killed attempt that reaches Slurm only after the resume looked
# (its sbatch still on its way when assay died: a CI run once had one hold
# the node for minutes) ends at once: the resume wrote "end" into the killed
# attempt's spool folder, and the job reads it before any step. A job whose
# spool folder was removed ends as well.
#   t-resume-shard.sh ASSAY
. "$(dirname "$0")/lib.sh" "$@"
cat >suite.json <<JSON
{"kind": "command", "name": "shard", "cluster": "e2e", "revision": "r1",
 "combos": {"c1": {"I": 1}, "c2": {"I": 2}, "c3": {"I": 3}},
 "argv": ["sh", "-c", "if [ \$0 = 2 ] && [ ! -e $T/hung ]; then touch $T/hung; echo \$\$ > $T/hung.pid; sleep 120; fi; sleep 0.5; printf '{\"series\":{\"workload\":\"w\",\"i\":%s},\"metric\":\"m\",\"statistic\":\"mean\",\"value\":%s,\"unit\":\"s\",\"direction\":\"lower\"}\\\\n' \$0 \$0 > \$1/rows.ndjson", "{I}", "{CASE_DIR}"],
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"],
 "launcher": {"type": "slurm", "gpu_gres": false, "poll_interval_s": 0.5, "time": "5"}}
JSON
"$ASSAY" run --store s.db --out out --quiet suite.json >out1.txt 2>err1.txt &
pid=$!
for _ in $(seq 1 600); do [ -e hung.pid ] && break; sleep 0.1; done
[ -e hung.pid ] || { cat err1.txt >&2; fail "case c2 did not start"; }
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
run=$(q s.db "SELECT run_id FROM runs")
first=$(squeue -h -t all -n "assay-$run-shard" -o %i)
[ -n "$first" ] || fail "no job assay-$run-shard"
expect_eq "$(job_field "$first" %T)" RUNNING "the killed attempt's job"
[ -e "out/$run/slurm/assay-$run-shard.d/step-1.done" ] || fail "step 1 of the first attempt is not marked done"
recorded=$(q s.db "SELECT count(*) FROM procs WHERE slurm_job = '$first' AND ended IS NULL" 2>&1 || true)
run_assay 0 run --store s.db --out out --quiet --resume last suite.json
expect_grep '^3 cases: 3 passed$' out.txt
expect_eq "$recorded" 1 "the job recorded for c2 before it ran"
expect_grep "^resume: job $first \(assay-$run-shard, RUNNING\) of an earlier attempt: cancelled$" err.txt
expect_eq "$(final_state "$first")" CANCELLED "the killed attempt's job after the resume"
expect_grep '^assay-cancel: an earlier attempt' <(job_field "$first" %k)
for _ in $(seq 50); do pid_gone "$(cat hung.pid)" && break; sleep 0.2; done
pid_gone "$(cat hung.pid)" || fail "the killed attempt's workload is still running"
second=$(squeue -h -t all -n "assay-$run-shard-a2" -o %i)
[ -n "$second" ] || fail "no job assay-$run-shard-a2 (the resumed attempt's own)"
[ -e "out/$run/slurm/a2/assay-$run-shard-a2.d/step-1.sh" ] || fail "the resumed attempt's spool folder"
expect_grep '^3 cases: 3 passed$' out.txt
expect_eq "$(q s.db "SELECT group_concat(case_id || ':' || outcome || ':' || attempts, ' ') FROM (SELECT * FROM cases ORDER BY case_id)")" \
  "c1:passed:1 c2:passed:2 c3:passed:1" "stored cases"
expect_eq "$(q s.db "SELECT count(*) FROM measurements")" 3 "rows"
expect_eq "$(q s.db "SELECT count(*) FROM procs WHERE ended IS NULL")" 0 "open process records"
# The late job: the killed attempt's script submitted again by hand.
spool="out/$run/slurm/assay-$run-shard.d"
[ -e "$spool/end" ] || fail "the resume did not end the killed attempt's spool folder"
rm -f "$spool/step-2.done"
late=$(sbatch --parsable "out/$run/slurm/assay-$run-shard.sh")
expect_eq "$(final_state "$late")" COMPLETED "a late job of the killed attempt"
[ ! -e "$spool/step-2.done" ] || fail "the late job ran a step of the killed attempt"
# A shard job whose run folder was removed (a test's scratch folder, a user
# cleaning up right after the run) ends too, rather than idling for
# idle_s (600 s): the resumed attempt's script again, its spool folder gone.
rm -rf "out/$run/slurm/a2/assay-$run-shard-a2.d"
gone=$(sbatch --parsable "out/$run/slurm/a2/assay-$run-shard-a2.sh")
expect_eq "$(final_state "$gone")" COMPLETED "a shard job whose spool folder was removed"
echo ok
