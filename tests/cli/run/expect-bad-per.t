# An expectation is checked per node or per rank, nothing else
args: run tests/fixtures/cli/run/expect-bad-per.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/expect-bad-per.json: $.expect[0].per: expected one of "node", "rank", got "host"
