# A named secret must be set in assay's environment before anything runs
args: run --store /nonexistent/never.db tests/fixtures/cli/run/train.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/train.json: $.secrets[0]: secret ASSAY_GOLDEN_UNSET_TOKEN is not set in the environment
