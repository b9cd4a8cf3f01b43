# server.first_host places a server on nodes: without server.nodes it is refused
args: run --dry-run tests/fixtures/cli/run/infer-nodes-first-host-alone.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/infer-nodes-first-host-alone.json: $.server.first_host: places a server on nodes, so "nodes" must be set too
