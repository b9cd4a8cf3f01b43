# The ssh launcher refuses a suite it cannot run, naming the file and JSON path (docs/ssh.md)
args: run --dry-run tests/fixtures/cli/run/ssh-too-few-hosts.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/ssh-too-few-hosts.json: $.launcher: case c1 needs 3 node(s) but the ssh launcher has 2 host(s)
