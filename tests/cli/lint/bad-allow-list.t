# an invalid .assay-lint.json: exit 2 naming it
args: lint tests/fixtures/cli/lint/bad-allow/build_manifest.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/lint/bad-allow/.assay-lint.json: $.allow["build_manifest.json"][0]: unknown rule "image_tag" (see 'assay lint --list-rules')
