# A placeholder of an expectation's pattern that a combo leaves unfilled
# is refused when the suite loads, naming the case
args: run tests/fixtures/cli/run/expect-unfilled.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/expect-unfilled.json: $.expect[0].pattern: placeholder {RCCL} has no value (case b)
