# A collective suite run by assay-coll (no "binary") with nccl-tests' fp8
# types: assay-coll builds them (issue 36 item 10), so the suite loads; it
# used to be refused ($.dtypes[1]: f8e4m3 is not built into assay-coll)
args: lint tests/fixtures/cli/run/coll-assay-coll-fp8.json
exit: 0
--- stdout
--- stderr
