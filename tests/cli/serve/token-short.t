# a secret shorter than 16 characters is refused
args: serve --store tests/cli/serve/missing.db --token-env ASSAY_TEST_TOKENS
env: ASSAY_TEST_TOKENS=alice:write:short
exit: 2
--- stdout
--- stderr
assay serve: --token-env ASSAY_TEST_TOKENS: token 1 (alice): the secret must be at least 16 characters
