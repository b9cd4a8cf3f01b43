# --jobs takes at most 256
args: lint --jobs 257 tests/fixtures/cli/lint/manifest.json
exit: 2
--- stdout
--- stderr
assay lint: --jobs: expected a whole number from 1 to 256, got '257'
