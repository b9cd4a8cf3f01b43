# A collective suite whose per-size thresholds file has a size key that is not a size:
# exit 2 naming the file and the JSON path, nothing run
args: run --dry-run tests/fixtures/cli/run/coll-thr-size.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/coll/thr-size.json: $.all_reduce.busbw["1 MiB"]: expected a message size in bytes ("1048576", or with K, M or G: "1M"), got "1 MiB"
