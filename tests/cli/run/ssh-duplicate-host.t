# The ssh launcher refuses a suite it cannot run, naming the file and JSON path (docs/ssh.md)
args: run --dry-run tests/fixtures/cli/run/ssh-duplicate-host.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/ssh-duplicate-host.json: $.launcher.hosts[1]: host "gpu01" is listed twice
