# An EP suite with a per-rank expectation: assay's mpirun (Open MPI) keeps
# each rank's output apart with --output-filename <case folder>/ranks, and
# the expectation is listed
args: run --dry-run --assay-ep assay-ep tests/fixtures/cli/run/ep-local-expect.json
exit: 0
--- stdout-grep
^\[1/1\] local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16$
^  mpirun -np 2 (--allow-run-as-root )?(--oversubscribe )?--output-filename /.+/out/golden/RUN_ID/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16/ranks assay-ep run --backend shm --ep 2 
^  expect: assay-ep per rank: assay-ep$
--- stderr
