# a bad targets file: exit 2, nothing sent
env: ASSAY_TEST_HOOK=https://hooks.example.com/x
args: notify test tests/fixtures/notify/bad-event.json
exit: 2
--- stdout
--- stderr
tests/fixtures/notify/bad-event.json: $.targets[0].events[1]: expected one of "regression", "recovered", "gate-failed", "infra", "published", got "regresion"
