# A mount that is not host:container[:ro] is refused
args: run --dry-run tests/fixtures/cli/run/container-bad-mount.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/container-bad-mount.json: $.container.mounts[0]: expected "host:container[:ro]", got "/data"
