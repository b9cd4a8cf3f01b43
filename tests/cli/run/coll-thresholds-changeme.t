# A collective suite whose per-size thresholds file has a CVS rccl config with an unfilled <changeme> placeholder:
# exit 2 naming the file and the JSON path, nothing run
args: run --dry-run tests/fixtures/cli/run/coll-thr-changeme.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/coll/thr-changeme.json: $.rccl.results.all_reduce_perf.bus_bw.8589934592: unfilled placeholder "<changeme>": replace it with a calibrated value
