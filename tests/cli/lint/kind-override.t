# --kind makes an unrecognised file a manifest
args: lint --kind manifest tests/fixtures/cli/lint/unknown-kind.json
exit: 0
--- stdout
--- stderr
