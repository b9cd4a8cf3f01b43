# A collective suite: each case is the nccl-tests program of its operation
# under mpirun with nccl-tests' flags; its stdout is read as nccl-tests-text
# (mpirun flags depend on this machine: root, cores)
args: run --dry-run tests/fixtures/cli/run/coll-local.json
exit: 0
--- stdout-grep
^\[1/4\] all_reduce-float-1x2$
^  mpirun -np 2 (--allow-run-as-root )?(--oversubscribe )?tests/fixtures/coll/bin/all_reduce_perf -b 8 -e 8589934592 -f 2 -g 1 -n 20 -w 5 -c 1 -d float$
^  logs: out/RUN_ID/all_reduce-float-1x2/stdout\.log, out/RUN_ID/all_reduce-float-1x2/stderr\.log; timeout 120 s \(then SIGTERM, SIGKILL after 5 s\)$
^  results: out/RUN_ID/all_reduce-float-1x2/stdout\.log \(parser nccl-tests-text\)$
^\[2/4\] all_reduce-float-1x4$
^  mpirun -np 4 (--allow-run-as-root )?(--oversubscribe )?tests/fixtures/coll/bin/all_reduce_perf -b 8 -e 8589934592 -f 2 -g 1 -n 20 -w 5 -c 1 -d float$
^\[3/4\] all_reduce-bfloat16-1x2$
^  mpirun -np 2 (--allow-run-as-root )?(--oversubscribe )?tests/fixtures/coll/bin/all_reduce_perf -b 8 -e 8589934592 -f 2 -g 1 -n 20 -w 5 -c 1 -d bfloat16$
^\[4/4\] all_reduce-bfloat16-1x4$
^  results: out/RUN_ID/all_reduce-bfloat16-1x4/stdout\.log \(parser nccl-tests-text\)$
--- stderr
