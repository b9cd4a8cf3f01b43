# a target's variable that is not set: named, with the JSON path
args: detect --store /nonexistent/x.db --notify tests/fixtures/notify/missing-var.json
exit: 2
--- stdout
--- stderr
tests/fixtures/notify/missing-var.json: $.targets[0].url_env: environment variable ASSAY_TEST_UNSET_HOOK_URL is not set
