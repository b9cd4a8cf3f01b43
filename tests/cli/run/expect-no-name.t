# An expectation without a name: its failure could not say which
args: run tests/fixtures/cli/run/expect-no-name.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/expect-no-name.json: $.expect[0].name: missing (expected a non-empty string)
