# The ab gate compares measurements: a workload judged by its exit code alone has none
args: run tests/fixtures/cli/run/variants-ab-parser-none.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/variants-ab-parser-none.json: $.gates.ab: compares the variants' measurements; parser "none" produces none
