# $.servers lists at least one role server
args: run --dry-run tests/fixtures/cli/run/infer-roles-empty.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/infer-roles-empty.json: $.servers: expected a non-empty array of role servers, got []
