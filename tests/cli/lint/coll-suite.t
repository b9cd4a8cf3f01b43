# lint knows a collective suite: its keys (sizes takes min, max, factor)
args: lint tests/fixtures/cli/lint/coll-bad.json
exit: 1
--- stdout
tests/fixtures/cli/lint/coll-bad.json:$.sizes.step: error: assay-config: unknown key (expected one of: min, max, factor)
--- stderr
assay lint: 1 error, 0 warnings in 1 file
