# The ab gate in a command suite without variants has nothing to pair
args: run tests/fixtures/cli/run/variants-ab-ep.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/variants-ab-ep.json: $.gates.ab: compares two backends of an EP suite at each point, or two variants ("variants"); this suite has neither
