# A role server placed past the ssh launcher's hosts (router from host index 2 of 2): refused by the launcher's check, naming the role's label
args: run --dry-run tests/fixtures/cli/run/infer-roles-past-hosts.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/infer-roles-past-hosts.json: $.launcher: case server-router needs 1 node(s) from host index 2 but the ssh launcher has 2 host(s) (indices 0..1)
