# --fail-on takes error or warning
args: lint --fail-on info tests/cli/lint/inputs/warnings.json
exit: 2
--- stdout
--- stderr
assay lint: --fail-on: expected one of error, warning, got 'info'
