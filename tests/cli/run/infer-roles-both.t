# A suite has one server or role servers, not both (docs/inference.md, "Role servers")
args: run --dry-run tests/fixtures/cli/run/infer-roles-both.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/infer-roles-both.json: $.servers: a suite has "server" (one server) or "servers" (role servers), not both
