# A multi-node command workload, one job per case: --gpus-per-node from the
# suite, MASTER_ADDR/MASTER_PORT, and secrets by name only (their values come
# from the environment sbatch runs in)
args: run --dry-run --out /runs tests/fixtures/cli/run/slurm-command.json
env: SLURM_JOB_ID=
env: SLURM_JOBID=
env: ASSAY_GOLDEN_TOKEN=golden-token-value-never-printed
exit: 0
--- stdout-grep
^\[1/2\] bf16$
^  sbatch --parsable /runs/RUN_ID/slurm/assay-RUN_ID-bf16\.sh$
^#SBATCH --nodes=2$
^#SBATCH --ntasks-per-node=1$
^#SBATCH --gpus-per-node=8$
^#SBATCH --partition=gpu$
^#SBATCH --exclusive$
^if \[ -z "\$\{ASSAY_GOLDEN_TOKEN\+set\}" \]; then echo "assay: secret ASSAY_GOLDEN_TOKEN is not in the job's environment" >&2; exit 97; fi$
^MASTER_ADDR=\$\(scontrol show hostnames "\$SLURM_JOB_NODELIST" \| head -n 1\)$
^export MASTER_PORT=29500$
^RUN=RUN_ID srun --nodes=2 --ntasks-per-node=1 --gpus-per-node=8 --kill-on-bad-exit=1 \\$
^    bash -c 'exec torchrun --nnodes=2 --nproc-per-node=8 --rdzv-endpoint=\$MASTER_ADDR:\$MASTER_PORT train.py --precision \$0' BF16 2>/runs/RUN_ID/slurm/bf16/srun\.err$
^  logs: /runs/RUN_ID/bf16/nodes/ \(per node\), /runs/RUN_ID/bf16/stdout\.log, /runs/RUN_ID/bf16/stderr\.log; timeout 600 s \(then scancel\)$
^\[2/2\] fp8$
^  sbatch --parsable /runs/RUN_ID/slurm/assay-RUN_ID-fp8\.sh$
--- stderr
