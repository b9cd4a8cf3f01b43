# an unknown rule id is a usage error
args: lint --disable image_tag tests/fixtures/cli/lint/manifest.json
exit: 2
--- stdout
--- stderr
assay lint: --disable: unknown rule "image_tag" (see 'assay lint --list-rules')
