# a GitHub target's repository is OWNER/NAME
env: ASSAY_TEST_TOKEN=ghp_x
args: detect --store /nonexistent/x.db --notify tests/fixtures/notify/github-bad-repo.json
exit: 2
--- stdout
--- stderr
tests/fixtures/notify/github-bad-repo.json: $.targets[0].repo: expected OWNER/NAME, got "gpu-perf"
