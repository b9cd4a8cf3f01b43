# lint of a collective suite reports its thresholds file's error at
# $.gates.thresholds, with the file's own location
args: lint tests/fixtures/cli/run/coll-thr-size.json
exit: 1
--- stdout
tests/fixtures/cli/run/coll-thr-size.json:$.gates.thresholds: error: assay-config: tests/fixtures/cli/coll/thr-size.json: $.all_reduce.busbw["1 MiB"]: expected a message size in bytes ("1048576", or with K, M or G: "1M"), got "1 MiB"
--- stderr
assay lint: 1 error, 0 warnings in 1 file
