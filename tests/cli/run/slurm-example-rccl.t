# The rccl-tests example of docs/collectives.md: four operations on two
# 8-GPU nodes, one job for the suite, each case an srun --mpi step of the
# operation's rccl-tests program with nccl-tests' flags
args: run --dry-run configs/examples/rccl-2node.json
env: SLURM_JOB_ID=
env: SLURM_JOBID=
exit: 0
--- stdout-grep
^\[1/4\] all_reduce-bfloat16-2x8$
^  sbatch --parsable /shared/assay/runs/RUN_ID/slurm/assay-RUN_ID-rccl-2node\.sh$
^#SBATCH --nodes=2$
^#SBATCH --ntasks-per-node=8$
^#SBATCH --gpus-per-node=8$
^NCCL_DEBUG=WARN NCCL_IB_HCA=bnxt_re0,bnxt_re1,bnxt_re2,bnxt_re3 srun --nodes=2 --ntasks-per-node=8 --gpus-per-node=8 --kill-on-bad-exit=1 --mpi=pmix \\$
^    /opt/rccl-tests/build/all_reduce_perf -b 1024 -e 17179869184 -f 2 -g 1 -n 20 -w 10 -c 1 -d bfloat16 2>/shared/assay/runs/RUN_ID/slurm/all_reduce-bfloat16-2x8/srun\.err$
^\[4/4\] alltoall-bfloat16-2x8$
^    /opt/rccl-tests/build/alltoall_perf -b 1024 -e 17179869184 -f 2 -g 1 -n 20 -w 10 -c 1 -d bfloat16 2>/shared/assay/runs/RUN_ID/slurm/alltoall-bfloat16-2x8/srun\.err$
--- stderr
