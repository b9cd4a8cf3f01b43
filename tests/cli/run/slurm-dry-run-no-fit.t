# Inside an allocation that cannot hold the case, a new job is submitted and
# the description says why
args: run --dry-run --assay-ep assay-ep --out /runs tests/fixtures/cli/run/ep-slurm.json
env: SLURM_JOB_ID=77
env: SLURM_JOB_NODELIST=node1
env: SLURM_JOB_NUM_NODES=1
env: SLURM_JOB_CPUS_PER_NODE=1
env: SLURM_STEP_ID=
exit: 0
--- stdout-grep
^  sbatch --parsable /runs/RUN_ID/slurm/assay-RUN_ID-local-cpu-shm-bf16-n1\.sh$
^  a new job, not in place: the case runs 2 task\(s\) per node; allocation 77 has 1 CPU\(s\) on its smallest node$
--- stderr
