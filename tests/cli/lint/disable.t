# --disable turns rules off (comma-separated)
args: lint --disable misplaced-key,image-tag tests/cli/lint/inputs/manifest.json
exit: 0
--- stdout
--- stderr
