# The ab gate of a suite with variants names two of them; another name is refused with the list
args: run tests/fixtures/cli/run/variants-ab.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/variants-ab.json: $.gates.ab.baseline: no variant "stock" (variants: baseline, candidate)
