# The GPU-cluster example of docs/slurm.md: two EP16 cases on two 8-GPU
# nodes, one job for their shard, site defaults from the registry's operator
# block and NCCL interfaces from its network block
args: run --dry-run configs/examples/slurm-h100.json
env: SLURM_JOB_ID=
env: SLURM_JOBID=
exit: 0
--- stdout-grep
^  sbatch --parsable /shared/assay/runs/RUN_ID/slurm/assay-RUN_ID-h100-nccl-bf16-n2\.sh$
^#SBATCH --nodes=2$
^#SBATCH --ntasks-per-node=8$
^#SBATCH --gpus-per-node=8$
^#SBATCH --partition=gpu$
^#SBATCH --account=perf$
^#SBATCH --qos=high$
^#SBATCH --exclude=gpu\[007,013\]$
^#SBATCH --constraint=h100&ib$
^#SBATCH --exclusive$
^#SBATCH --comment="assay suite"$
^export NCCL_IB_HCA=mlx5_0,mlx5_1$
^NCCL_DEBUG=WARN srun --nodes=2 --ntasks-per-node=8 --gpus-per-node=8 --kill-on-bad-exit=1 --mpi=pmix \\$
^    /opt/assay/bin/assay-ep run --backend nccl --ep 16 --mode normal --phase prefill --precision bf16 --tokens 1024,4096 --profile reference 
^  a step of job assay-RUN_ID-h100-nccl-bf16-n2 \(one job per shard\)$
--- stderr
