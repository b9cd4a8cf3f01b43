# Only Megatron training configs are imported
args: import cvs --user alice tests/cli/import/inputs/jax.json
exit: 2
--- stdout
--- stderr
tests/cli/import/inputs/jax.json: $.framework: expected one of "megatron_single", "megatron_distributed", got "jax_single"
