# --out naming the configuration itself is refused before anything is read or written
args: import cvs --user alice --out tests/fixtures/cli/import/jax.json tests/fixtures/cli/import/jax.json
exit: 2
--- stdout
--- stderr
assay import: --out tests/fixtures/cli/import/jax.json is the configuration itself
