# A collective suite on Slurm: one job per case, srun with the MPI plugin
# starts the ranks (nodes x ranks per node), the suite's env before it
args: run --dry-run --out /runs tests/fixtures/cli/run/coll-slurm.json
env: SLURM_JOB_ID=
env: SLURM_JOBID=
exit: 0
--- stdout-grep
^\[1/2\] all_reduce-float-2x8$
^  sbatch --parsable /runs/RUN_ID/slurm/assay-RUN_ID-all_reduce-float-2x8\.sh$
^#SBATCH --nodes=2$
^#SBATCH --ntasks-per-node=8$
^#SBATCH --partition=gpu$
^NCCL_IB_HCA=bnxt_re0,bnxt_re1 srun --nodes=2 --ntasks-per-node=8 --gpus-per-node=8 --kill-on-bad-exit=1 --mpi=pmix \\$
^    /opt/rccl-tests/build/all_reduce_perf -b 1024 -e 17179869184 -f 2 -g 1 -n 20 -w 10 -c 1 -d float 2>/runs/RUN_ID/slurm/all_reduce-float-2x8/srun\.err$
^  results: /runs/RUN_ID/all_reduce-float-2x8/stdout\.log \(parser nccl-tests-text\)$
^\[2/2\] alltoall-float-2x8$
^    /opt/rccl-tests/build/alltoall_perf -b 1024 -e 17179869184 -f 2 -g 1 -n 20 -w 10 -c 1 -d float 2>/runs/RUN_ID/slurm/alltoall-float-2x8/srun\.err$
--- stderr
