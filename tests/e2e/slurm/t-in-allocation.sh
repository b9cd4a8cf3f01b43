#!/usr/bin/env bash
# Under salloc, cases run as srun steps inside the allocation: no new job is
# submitted (the only job is the allocation), an EP case passes with assay-ep
# under srun --mpi=pmix, and the per-node logs are collected.
#   t-in-allocation.sh ASSAY ASSAY_EP
. "$(dirname "$0")/lib.sh" "$@"
cat >suite.json <<JSON
{"kind": "ep", "name": "slurm-alloc", "cluster": "e2e",
 "platforms": "$ASSAY_SOURCE_DIR/configs/platforms.json",
 "sweep": {"suite": "slurm-alloc", "routing": "uniform", "modes": {"normal": ["decode"]},
           "ep_degrees": [2], "precisions": ["bf16"], "timing": {"profile": "quick"},
           "workload": {"name": "tiny", "hidden": 256, "topk": 2, "experts": 8, "seed": 67,
                        "token_ladders": {"decode": [1, 4]}}},
 "filters": {"sku": ["local-cpu"], "backend": ["shm"]},
 "env": {"ASAN_OPTIONS": "detect_leaks=0"},
 "launcher": {"type": "slurm", "poll_interval_s": 0.5},
 "timeout_s": 300}
JSON
before=$(jobs_known | tail -n 1)
rc=0
salloc -N1 --ntasks-per-node=2 --time=5 -J assay-e2e-alloc \
  "$ASSAY" run --store s.db --assay-ep "$ASSAY_EP" --quiet suite.json >out.txt 2>err.txt || rc=$?
[ "$rc" = 0 ] || { cat out.txt err.txt >&2; fail "salloc ... assay run exited $rc"; }
new=$(jobs_known | awk -v b="${before:-0}" '$1 > b')
expect_eq "$(echo "$new" | wc -l)" 1 "jobs Slurm got during the run"
expect_eq "$(job_field "$new" %j)" assay-e2e-alloc "the only new job"
run=$(q s.db "SELECT run_id FROM runs")
c=local-cpu-shm-tiny-normal-decode-ep2-uniform-bf16
expect_eq "$(q s.db "SELECT outcome FROM cases")" passed "stored outcome"
expect_grep "^  a step of Slurm allocation $new on $(hostname -s) \(in place: no new job\)\$" "out/$run/$c/command.txt"
expect_grep ' srun --nodes=1 --ntasks-per-node=2 --nodelist=' "out/$run/$c/command.txt"
expect_grep '^assay-ep shm: ep 2, normal decode' "out/$run/$c/nodes/$(hostname -s).out"
[ ! -e "out/$run/slurm/$c" ] || fail "the raw per-node folder was not removed"
echo ok
