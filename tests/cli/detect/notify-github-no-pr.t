# a GitHub comment needs the pull request's number
env: ASSAY_TEST_TOKEN=ghp_x
args: detect --store /nonexistent/x.db --notify tests/fixtures/notify/github-comment-no-pr.json
exit: 2
--- stdout
--- stderr
tests/fixtures/notify/github-comment-no-pr.json: $.targets[0].comment: a comment needs pr_env (the pull request's number)
