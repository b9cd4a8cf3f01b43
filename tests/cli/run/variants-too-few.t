# A variants block needs a baseline and something to compare with: the JSON path and the count
args: run tests/fixtures/cli/run/variants-one.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/variants-one.json: $.variants: expected at least two variants (a baseline and a candidate), got 1
