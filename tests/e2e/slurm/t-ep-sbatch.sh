#!/usr/bin/env bash
# An EP suite on the local-cpu platform through sbatch, one job per shard:
# each case is an srun --mpi=pmix step running assay-ep with the same
# arguments as the local launcher; results stored, outcomes passed, every
# shard job completed, per-node logs collected, secrets by name only.
#   t-ep-sbatch.sh ASSAY ASSAY_EP
. "$(dirname "$0")/lib.sh" "$@"
export ASSAY_E2E_SECRET="ep-secret-$$-$RANDOM"
suite() { # suite LAUNCHER
  cat <<JSON
{"kind": "ep", "name": "slurm-ep", "cluster": "e2e",
 "platforms": "$ASSAY_SOURCE_DIR/configs/platforms.json",
 "sweep": {"suite": "slurm-ep", "routing": "uniform", "modes": {"normal": ["decode", "prefill"]},
           "ep_degrees": [2], "precisions": ["bf16"], "timing": {"profile": "quick"},
           "workload": {"name": "tiny", "hidden": 256, "topk": 2, "experts": 8, "seed": 67,
                        "token_ladders": {"decode": [1, 4], "prefill": [16]}}},
 "filters": {"sku": ["local-cpu"], "backend": ["mpi", "shm"]},
 "env": {"ASAN_OPTIONS": "detect_leaks=0"},
 "secrets": ["ASSAY_E2E_SECRET"],
 "launcher": $1,
 "timeout_s": 300}
JSON
}
suite '{"type": "slurm", "poll_interval_s": 0.5, "time": "10"}' >suite.json
suite '"local"' >local.json
run_assay 0 run --store s.db --assay-ep "$ASSAY_EP" --quiet suite.json
run=$(q s.db "SELECT run_id FROM runs")
expect_eq "$(q s.db "SELECT case_id || ':' || outcome FROM cases ORDER BY case_id" | tr '\n' ' ')" \
  "local-cpu-mpi-tiny-normal-decode-ep2-uniform-bf16:passed local-cpu-mpi-tiny-normal-prefill-ep2-uniform-bf16:passed local-cpu-shm-tiny-normal-decode-ep2-uniform-bf16:passed local-cpu-shm-tiny-normal-prefill-ep2-uniform-bf16:passed " \
  "stored outcomes"
[ "$(q s.db "SELECT count(*) FROM measurements")" -gt 0 ] || fail "no measurements stored"
expect_grep '^4 cases: 4 passed$' out.txt
# One job per shard (backend mpi, backend shm), each ran its two cases as
# steps and completed when assay handed over "end".
for b in mpi shm; do
  name="assay-$run-local-cpu-$b-bf16-n1"
  id=$(squeue -h -t all -n "$name" -o %i)
  [ -n "$id" ] || fail "no job named $name"
  expect_eq "$(final_state "$id")" COMPLETED "state of job $name"
  d="out/$run/slurm/$name.d"
  for f in step-1.sh step-1.done step-2.sh step-2.done end; do
    [ -e "$d/$f" ] || fail "$d/$f missing"
  done
  expect_grep '^#SBATCH --ntasks-per-node=2$' "out/$run/slurm/$name.sh"
  ! grep -q -- '--gpus' "out/$run/slurm/$name.sh" || fail "local-cpu asked for GPUs (gpu_gres is false)"
done
c=local-cpu-shm-tiny-normal-prefill-ep2-uniform-bf16
# The per-node log holds assay-ep's table; the unredacted originals are gone.
expect_grep '^assay-ep shm: ep 2, normal prefill' "out/$run/$c/nodes/$(hostname -s).out"
expect_grep '^assay-ep shm: ep 2, normal prefill' "out/$run/$c/stdout.log"
[ ! -e "out/$run/slurm/$c" ] || fail "the raw per-node folder was not removed"
# srun --mpi=pmix runs exactly the program the local launcher gives mpirun.
expect_grep ' srun --nodes=1 --ntasks-per-node=2 --kill-on-bad-exit=1 --mpi=pmix ' "out/$run/$c/command.txt"
slurm_cmd=$(grep -o "$ASSAY_EP run .*result\.json" "out/$run/$c/command.txt" | sed "s|out/$run/||g")
run_assay 0 run --dry-run --assay-ep "$ASSAY_EP" local.json
local_cmd=$(grep -A1 "^\[[0-9]/4\] $c\$" out.txt | grep -o "$ASSAY_EP run .*result\.json" | sed "s|out/RUN_ID/||g")
[ -n "$slurm_cmd" ] && expect_eq "$slurm_cmd" "$local_cmd" "assay-ep command under srun and under mpirun"
no_secret "$ASSAY_E2E_SECRET" out s.db
echo ok
