# an unknown option is named, with where to look
args: lint --frobnicate tests/fixtures/cli/lint/manifest.json
exit: 2
--- stdout
--- stderr
assay lint: unknown option '--frobnicate' (see 'assay help lint')
