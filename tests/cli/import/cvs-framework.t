# Only Megatron training configs are imported
args: import cvs --user alice tests/fixtures/cli/import/jax.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/import/jax.json: $.framework: expected one of "megatron_single", "megatron_distributed", got "jax_single"
