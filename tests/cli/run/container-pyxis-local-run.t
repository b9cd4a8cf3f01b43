# pyxis under the local launcher (issue 35, item 5): a run exits 2 before it
# opens a store or a run folder.
args: run --store $STORE --out /nonexistent/assay-out tests/fixtures/cli/run/container-pyxis-local.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/container-pyxis-local.json: $.container.runtime: pyxis is a Slurm plugin and runs under the slurm launcher, not local; use "launcher": {"type": "slurm"}, or podman or docker
