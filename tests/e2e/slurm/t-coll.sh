#!/usr/bin/env bash
# A collective suite through sbatch: each case is an srun --mpi=pmix step of
# the stand-in all_reduce_perf (a real nccl-tests table, printed by rank 0)
# with nccl-tests' flags; the table in the case's stdout reads into rows,
# and the per-size thresholds fail 2 MiB (88.86 < 95 GB/s): exit 1, the
# verdict names the size, the job completed.
#   t-coll.sh ASSAY ASSAY_EP
. "$(dirname "$0")/lib.sh" "$@"
cat >thr.json <<'JSON'
{"all_reduce": {"busbw": {"1M": 40, "2097152": 95}}}
JSON
cat >suite.json <<JSON
{"kind": "collective", "name": "slurm-coll", "cluster": "e2e",
 "binary": "$ASSAY_SOURCE_DIR/tests/fixtures/coll/bin/{OP}_perf",
 "operations": ["all_reduce"], "sizes": {"min": 8, "max": "8G"}, "ranks": [2],
 "launcher": {"type": "slurm", "poll_interval_s": 0.5, "time": "10", "gpu_gres": false},
 "timeout_s": 200, "gates": {"thresholds": "thr.json"}}
JSON
run_assay 1 run --store s.db --quiet suite.json
run=$(q s.db "SELECT run_id FROM runs")
expect_grep '^all_reduce-float-1x2 +gate-failed .*gates: 1 FAIL \(threshold busbw/mean: all_reduce at 2097152 B, in-place: busbw 88\.86 GB/s < 95\), 1 PASS, 29 RECORD( \(queued .*\))?$' out.txt
expect_grep '^exit 1 \(gate-failed\)$' out.txt
script=$(ls out/"$run"/slurm/assay-*.sh)
[ "$(echo "$script" | wc -l)" = 1 ] || fail "expected one job script, got: $script"
expect_grep '^#SBATCH --ntasks-per-node=2$' "$script"
# One job for the suite; the case is a step it runs (step-1.sh).
cat "$script" "${script%.sh}.d"/step-*.sh >job.txt
expect_grep 'srun --nodes=1 --ntasks-per-node=2 --kill-on-bad-exit=1 --mpi=' job.txt
expect_grep '/tests/fixtures/coll/bin/all_reduce_perf -b 8 -e 8589934592 -f 2 -g 1 -n 20 -w 5 -c 1 -d float ' job.txt
! grep -q -- '--gpus' job.txt || fail "asked for GPUs (gpu_gres is false)"
id=$(squeue -h -t all -n "$(basename "$script" .sh)" -o %i)
[ -n "$id" ] || fail "no job for the case"
expect_eq "$(final_state "$id")" COMPLETED "state of the case's job"
# One table (rank 0's), every row stored.
expect_eq "$(q s.db "SELECT count(*) FROM measurements")" 249 "stored rows"

# assay-coll (built next to assay) through the local Slurm: the same suite
# with assay-coll as the program (backend mpi) and a threshold that fails
# 1 MiB on purpose.
coll="$(dirname "$1")/assay-coll"
[ -x "$coll" ] || fail "no assay-coll next to $1"
{
  cat >thr2.json <<'JSON'
{"all_reduce": {"busbw": {"1M": 1000000}}}
JSON
  cat >coll.json <<JSON
{"kind": "collective", "name": "slurm-assay-coll", "cluster": "e2e",
 "binary": "$coll", "backend": "mpi",
 "operations": ["all_reduce"], "sizes": {"min": 8, "max": "4M"}, "ranks": [2],
 "iterations": 5, "warmups": 1, "env": {"ASAN_OPTIONS": "detect_leaks=0"},
 "launcher": {"type": "slurm", "poll_interval_s": 0.5, "time": "10", "gpu_gres": false},
 "timeout_s": 200, "gates": {"thresholds": "thr2.json"}}
JSON
  run_assay 1 run --store s2.db --quiet coll.json
  expect_grep '^all_reduce-float-1x2 +gate-failed .*gates: 1 FAIL \(threshold busbw/mean: all_reduce at 1048576 B, in-place: busbw .* < 1e\+06\)' out.txt
  [ "$(q s2.db "SELECT count(*) FROM measurements")" -gt 0 ] || fail "assay-coll: no rows stored"
}
