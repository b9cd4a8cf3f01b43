# On Slurm the variants of a case share one job even with job_per "case":
# the baseline submits the job, the candidate is its next step (with its
# library path and environment), and the next case's variants get a job of
# their own
args: run --dry-run --out /runs tests/fixtures/cli/run/slurm-variants.json
env: SLURM_JOB_ID=
env: SLURM_JOBID=
env: LD_LIBRARY_PATH=
exit: 0
--- stdout-grep
^\[1/4\] ar-8g\.baseline$
^  sbatch --parsable /runs/RUN_ID/slurm/assay-RUN_ID-ar-8g\.sh$
^# step 1: ar-8g\.baseline$
^    all_reduce_perf -b 8 -e 8G -f 2 2>/runs/RUN_ID/slurm/ar-8g\.baseline/srun\.err$
^\[2/4\] ar-8g\.candidate$
^  a step of job assay-RUN_ID-ar-8g \(one job for the variants of a case\)$
^# step 2: ar-8g\.candidate$
^NCCL_DEBUG=VERSION LD_LIBRARY_PATH=/opt/rccl-overlay/lib srun --nodes=2 --ntasks-per-node=1 --gpus-per-node=8 --kill-on-bad-exit=1 \\$
^    all_reduce_perf -b 8 -e 8G -f 2 2>/runs/RUN_ID/slurm/ar-8g\.candidate/srun\.err$
^\[3/4\] ag-8g\.baseline$
^  sbatch --parsable /runs/RUN_ID/slurm/assay-RUN_ID-ag-8g\.sh$
^\[4/4\] ag-8g\.candidate$
^  a step of job assay-RUN_ID-ag-8g \(one job for the variants of a case\)$
--- stderr
