# --out naming the configuration itself is refused before anything is read or written
args: import cvs --user alice --out tests/cli/import/inputs/jax.json tests/cli/import/inputs/jax.json
exit: 2
--- stdout
--- stderr
assay import: --out tests/cli/import/inputs/jax.json is the configuration itself
