# a .assay-lint.json beside the file allows findings per file and path
args: lint tests/fixtures/cli/lint/allowed/build_manifest.json
exit: 0
--- stdout
--- stderr
assay lint: 0 errors, 0 warnings in 1 file; 2 allowed by .assay-lint.json
