# ASSAY_NOTIFY names the targets file when --notify is not given
env: ASSAY_NOTIFY=tests/fixtures/notify/bad-type.json
args: detect --store /nonexistent/x.db
exit: 2
--- stdout
--- stderr
tests/fixtures/notify/bad-type.json: $.targets[0].type: unknown target type "slak" (expected webhook, slack, teams, github, email)
