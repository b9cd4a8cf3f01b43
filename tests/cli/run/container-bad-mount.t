# A mount that is not host:container[:ro] is refused
args: run --dry-run tests/cli/run/inputs/container-bad-mount.json
exit: 2
--- stdout
--- stderr
tests/cli/run/inputs/container-bad-mount.json: $.container.mounts[0]: expected "host:container[:ro]", got "/data"
