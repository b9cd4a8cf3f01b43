# a GitHub target needs its token's variable
args: detect --store /nonexistent/x.db --notify tests/fixtures/notify/github-bad-repo.json
exit: 2
--- stdout
--- stderr
tests/fixtures/notify/github-bad-repo.json: $.targets[0].token_env: environment variable ASSAY_TEST_TOKEN is not set
