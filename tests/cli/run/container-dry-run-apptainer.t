# A command suite in an apptainer container on Slurm: the exact step line of the
# job script (every other line is as without a container); secrets by name
args: run --dry-run --out /runs tests/fixtures/cli/run/container-apptainer.json
env: SLURM_JOB_ID=
env: SLURM_JOBID=
env: ASSAY_GOLDEN_TOKEN=golden-token-value-never-printed
exit: 0
--- stdout-grep
^RUN=RUN_ID srun --nodes=2 --ntasks-per-node=1 --gpus-per-node=8 --kill-on-bad-exit=1 \\$
^    --output=/runs/RUN_ID/slurm/bf16/%x-%j-%N\.out \\$
^    --error=/runs/RUN_ID/slurm/bf16/%x-%j-%N\.err \\$
^    apptainer exec --rocm --bind /runs/RUN_ID/bf16:/runs/RUN_ID/bf16 --bind /data:/data:ro --pwd /workspace /shared/images/rocm-pytorch\.sif python3 train\.py --precision BF16 2>/runs/RUN_ID/slurm/bf16/srun\.err$
--- stderr
