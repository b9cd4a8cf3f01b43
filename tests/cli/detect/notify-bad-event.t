# an event name misspelt
env: ASSAY_TEST_HOOK=https://hooks.example.com/x
args: detect --store /nonexistent/x.db --notify tests/fixtures/notify/bad-event.json
exit: 2
--- stdout
--- stderr
tests/fixtures/notify/bad-event.json: $.targets[0].events[1]: expected one of "regression", "recovered", "gate-failed", "infra", "published", got "regresion"
