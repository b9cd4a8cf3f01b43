# A collective suite run by assay-coll with a backend assay-coll does not
# build: refused when the suite loads (exit 2), not by each case (issue 36)
args: run --dry-run tests/fixtures/cli/run/coll-assay-coll-nccl.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/coll-assay-coll-nccl.json: $.backend: nccl is not built into assay-coll (no "binary"): expected mpi or shm
