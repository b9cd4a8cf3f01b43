# server.first_host is a 0-based host index
args: run --dry-run tests/fixtures/cli/run/infer-nodes-first-host-negative.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/infer-nodes-first-host-negative.json: $.server.first_host: expected an integer >= 0, got -1
