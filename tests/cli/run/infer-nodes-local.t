# A server on nodes needs the ssh launcher (docs/inference.md, "A server on nodes"): refused, naming the key
args: run --dry-run tests/fixtures/cli/run/infer-nodes-local.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/infer-nodes-local.json: $.server.nodes: a server on nodes is started through the ssh launcher; this suite's launcher is local
