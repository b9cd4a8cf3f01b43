# A server on more nodes than the ssh launcher has hosts: refused by the launcher's check (docs/inference.md)
args: run --dry-run tests/fixtures/cli/run/infer-nodes-too-many.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/infer-nodes-too-many.json: $.launcher: case server needs 3 node(s) but the ssh launcher has 2 host(s)
