# --dry-run prints the job script of each shard (the cases are handed over as
# steps through a spool folder) and each case's step: srun --mpi=pmix with
# the same assay-ep arguments as the local launcher. A shard's cases run one
# after another (bf16 decode and prefill, then fp8), not in case id order.
args: run --dry-run --assay-ep assay-ep --out /runs tests/fixtures/cli/run/ep-slurm.json
env: SLURM_JOB_ID=
env: SLURM_JOBID=
exit: 0
--- stdout-grep
^\[1/4\] local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16$
^  sbatch --parsable /runs/RUN_ID/slurm/assay-RUN_ID-local-cpu-shm-bf16-n1\.sh$
^#SBATCH --nodes=1$
^#SBATCH --ntasks-per-node=2$
^#SBATCH --partition=cpu$
^#SBATCH --time=00:20:00$
^#SBATCH --chdir=/
^#SBATCH --output=/runs/RUN_ID/slurm/%x-%j\.out$
^spool=/runs/RUN_ID/slurm/assay-RUN_ID-local-cpu-shm-bf16-n1\.d$
^  --- handed over as /runs/RUN_ID/slurm/assay-RUN_ID-local-cpu-shm-bf16-n1\.d/step-N\.sh$
^# step 1: local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16$
^NCCL_DEBUG=WARN srun --nodes=1 --ntasks-per-node=2 --kill-on-bad-exit=1 --mpi=pmix \\$
^    assay-ep run --backend shm --ep 2 --mode normal --phase decode --precision bf16 --tokens 1,2,4,8,16,32,64,128 --profile quick --hidden 7168 --experts 256 --topk 8 --seed 67 --scale-up-domain 2 --workload deepseek-v3 --out /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16/result\.json 2>/runs/RUN_ID/slurm/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16/srun\.err$
^printf '%s\\n' "\$rc" >/runs/RUN_ID/slurm/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16/exit$
^\[2/4\] local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-bf16$
^  a step of job assay-RUN_ID-local-cpu-shm-bf16-n1 \(one job per shard\)$
^# step 2: local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-bf16$
^\[3/4\] local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-fp8$
^  sbatch --parsable /runs/RUN_ID/slurm/assay-RUN_ID-local-cpu-shm-fp8-n1\.sh$
^\[4/4\] local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-fp8$
^# step 2: local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-fp8$
--- stderr
