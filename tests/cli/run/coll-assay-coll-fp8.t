# A collective suite run by assay-coll (no "binary") with a dtype assay-coll
# does not build: refused when the suite loads (exit 2, the JSON path), not
# by the case that runs it (issue 36)
args: run --dry-run tests/fixtures/cli/run/coll-assay-coll-fp8.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/coll-assay-coll-fp8.json: $.dtypes[1]: f8e4m3 is not built into assay-coll (no "binary"): expected int8, uint8, int32, uint32, int64, uint64, half, float, double or bfloat16
