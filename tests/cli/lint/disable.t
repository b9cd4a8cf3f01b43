# --disable turns rules off (comma-separated)
args: lint --disable misplaced-key,image-tag tests/fixtures/cli/lint/manifest.json
exit: 0
--- stdout
--- stderr
