# A case may not carry a role server's label (server-<role>)
args: run --dry-run tests/fixtures/cli/run/infer-roles-case-named.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/infer-roles-case-named.json: $.servers[0].nodes: a case is named "server-prefill", the name the server's processes carry on the nodes: rename it
