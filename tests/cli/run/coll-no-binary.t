# A collective suite whose program is not there for one operation (the
# stand-in has all_reduce_perf only): exit 5 before anything runs, naming it
args: run tests/fixtures/cli/run/coll-no-binary.json
exit: 5
--- stdout
--- stderr
tests/fixtures/cli/run/coll-no-binary.json: $.binary: tests/fixtures/coll/bin/alltoall_perf (case alltoall-float-1x2) is not an executable program
