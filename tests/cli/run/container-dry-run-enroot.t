# A command suite in an enroot container on Slurm: the exact step line of the
# job script (every other line is as without a container); secrets by name
args: run --dry-run --out /runs tests/fixtures/cli/run/container-enroot.json
env: SLURM_JOB_ID=
env: SLURM_JOBID=
env: ASSAY_GOLDEN_TOKEN=golden-token-value-never-printed
exit: 0
--- stdout-grep
^RUN=RUN_ID srun --nodes=2 --ntasks-per-node=1 --gpus-per-node=8 --kill-on-bad-exit=1 \\$
^    --output=/runs/RUN_ID/slurm/bf16/%x-%j-%N\.out \\$
^    --error=/runs/RUN_ID/slurm/bf16/%x-%j-%N\.err \\$
^    enroot start --mount /runs/RUN_ID/bf16:/runs/RUN_ID/bf16 --mount /data:/data:none:x-create=auto,rbind,ro --env HF_HOME --env RUN --env ASSAY_GOLDEN_TOKEN /shared/images/pytorch\+sha256:4a1e0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f90\.sqsh sh -c 'cd "\$0" && exec "\$@"' /workspace python3 train\.py --precision BF16 2>/runs/RUN_ID/slurm/bf16/srun\.err$
--- stderr
