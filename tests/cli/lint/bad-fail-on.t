# --fail-on takes error or warning
args: lint --fail-on info tests/fixtures/cli/lint/warnings.json
exit: 2
--- stdout
--- stderr
assay lint: --fail-on: expected one of error, warning, got 'info'
