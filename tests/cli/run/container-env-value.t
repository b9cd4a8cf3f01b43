# A value in the container's env (names only) is refused, and the value is not echoed
args: run --dry-run tests/fixtures/cli/run/container-env-value.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/container-env-value.json: $.container.env[1]: expected a variable name, got "NAME=value": env passes names only, values come from assay's environment
