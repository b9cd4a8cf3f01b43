# A collective suite whose per-size thresholds file has a threshold that is not a number:
# exit 2 naming the file and the JSON path, nothing run
args: run --dry-run tests/fixtures/cli/run/coll-thr-value.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/coll/thr-value.json: $.all_reduce.busbw.1M: expected a busbw in GB/s >= 0 (a number or a numeric string), got "fast"
