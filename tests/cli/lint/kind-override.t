# --kind makes an unrecognised file a manifest
args: lint --kind manifest tests/cli/lint/inputs/unknown-kind.json
exit: 0
--- stdout
--- stderr
