# the variable --token-env names must be set
args: serve --store tests/cli/serve/missing.db --token-env ASSAY_TEST_NO_SUCH_VARIABLE
exit: 2
--- stdout
--- stderr
assay serve: --token-env ASSAY_TEST_NO_SUCH_VARIABLE: the variable is not set
