# pyxis under the local launcher (issue 35, item 5): refused when the suite
# loads, so a dry run exits 2 too and a run writes nothing.
args: run --dry-run tests/fixtures/cli/run/container-pyxis-local.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/container-pyxis-local.json: $.container.runtime: pyxis is a Slurm plugin and runs under the slurm launcher, not local; use "launcher": {"type": "slurm"}, or podman or docker
