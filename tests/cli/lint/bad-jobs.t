# --jobs takes a whole number of at least 1
args: lint --jobs 0 tests/fixtures/cli/lint/manifest.json
exit: 2
--- stdout
--- stderr
assay lint: --jobs: expected a whole number of at least 1, got '0'
