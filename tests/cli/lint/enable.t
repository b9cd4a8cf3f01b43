# --disable all --enable RULE runs one rule; unknown-key is off by default
args: lint --disable all --enable unknown-key tests/fixtures/cli/lint/unknown-kind.json --kind manifest
exit: 0
--- stdout
tests/fixtures/cli/lint/unknown-kind.json:$.name: warning: unknown-key: madengine does not read a top-level "name"
tests/fixtures/cli/lint/unknown-kind.json:$.version: warning: unknown-key: madengine does not read a top-level "version"
--- stderr
assay lint: 0 errors, 2 warnings in 1 file
