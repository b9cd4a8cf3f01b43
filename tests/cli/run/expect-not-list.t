# expect is a list of expectations
args: run tests/fixtures/cli/run/expect-not-list.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/expect-not-list.json: $.expect: expected an array of {"name", "pattern", "per"} objects, got {...}
