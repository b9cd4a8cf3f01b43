# The ssh launcher refuses a suite it cannot run, naming the file and JSON path (docs/ssh.md)
args: run --dry-run tests/fixtures/cli/run/ssh-no-hosts.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/ssh-no-hosts.json: $.launcher: missing: "hosts" or "cluster_file"
