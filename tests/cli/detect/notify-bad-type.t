# a targets file is checked before the store is opened: an unknown target type
env: ASSAY_TEST_HOOK=https://hooks.example.com/x
args: detect --store /nonexistent/x.db --notify tests/fixtures/notify/bad-type.json
exit: 2
--- stdout
--- stderr
tests/fixtures/notify/bad-type.json: $.targets[0].type: unknown target type "slak" (expected webhook, slack, teams, github, email)
