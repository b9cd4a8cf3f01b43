# A role is named once in $.servers
args: run --dry-run tests/fixtures/cli/run/infer-roles-twice.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/infer-roles-twice.json: $.servers[1].role: role "prefill" is named twice
