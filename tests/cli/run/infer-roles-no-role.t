# Each role server names its role
args: run --dry-run tests/fixtures/cli/run/infer-roles-no-role.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/infer-roles-no-role.json: $.servers[1].role: missing (expected a non-empty string)
