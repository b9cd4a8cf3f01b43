# A server on nodes placed past the ssh launcher's hosts (first_host 2 + 2 nodes > 3 hosts): refused by the launcher's check (docs/inference.md)
args: run --dry-run tests/fixtures/cli/run/infer-nodes-first-host-past.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/infer-nodes-first-host-past.json: $.launcher: case server needs 2 node(s) from host index 2 but the ssh launcher has 3 host(s) (indices 0..2)
