# A named secret must be set in assay's environment before anything runs
args: run --store /nonexistent/never.db tests/cli/run/inputs/train.json
exit: 2
--- stdout
--- stderr
tests/cli/run/inputs/train.json: $.secrets[0]: secret ASSAY_GOLDEN_UNSET_TOKEN is not set in the environment
