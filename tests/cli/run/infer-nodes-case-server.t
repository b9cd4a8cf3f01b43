# With a server on nodes, no case may be named server: the server's processes carry that case label on the nodes
args: run --dry-run tests/fixtures/cli/run/infer-nodes-case-server.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/infer-nodes-case-server.json: $.server.nodes: a case is named "server", the name the server's processes carry on the nodes: rename it
