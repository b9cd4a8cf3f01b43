# an unknown --format: usage error
args: lint --format xml tests/fixtures/cli/lint/manifest.json
exit: 2
--- stdout
--- stderr
assay lint: --format: expected one of human, json, sarif, github, got 'xml'
