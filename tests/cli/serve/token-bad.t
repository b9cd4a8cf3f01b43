# a malformed token entry is named by its position and name, never its secret
args: serve --store tests/cli/serve/missing.db --token-env ASSAY_TEST_TOKENS
env: ASSAY_TEST_TOKENS=alice:write:0123456789abcdef bob:admin:s3cr3t-s3cr3t-s3cr3t
exit: 2
--- stdout
--- stderr
assay serve: --token-env ASSAY_TEST_TOKENS: token 2 (bob): scope must be read or write
