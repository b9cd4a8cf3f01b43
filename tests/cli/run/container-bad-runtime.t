# An unknown container runtime is an error naming the file and JSON path; nothing runs
args: run --dry-run tests/fixtures/cli/run/container-bad-runtime.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/container-bad-runtime.json: $.container.runtime: expected one of "podman", "docker", "pyxis", "enroot", "apptainer", got "singularity"
