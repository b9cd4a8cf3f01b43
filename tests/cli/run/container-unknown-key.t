# An unknown key in the container block is refused with the keys it takes
args: run --dry-run tests/fixtures/cli/run/container-unknown-key.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/container-unknown-key.json: $.container.volumes: unknown key (expected one of: image, runtime, mounts, workdir, env, options, pull, devices, init)
