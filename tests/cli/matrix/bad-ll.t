# ll_backends must be a subset of backends
args: matrix --platforms tests/fixtures/cli/matrix/bad-ll.json configs/sweep-local.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/matrix/bad-ll.json: $.platforms.local-cpu.ll_backends[1]: "nccl" is not one of this platform's backends (mpi, shm)
