# server.nodes is a count of nodes, at least 1
args: run --dry-run tests/fixtures/cli/run/infer-nodes-zero.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/infer-nodes-zero.json: $.server.nodes: expected an integer >= 1, got 0
