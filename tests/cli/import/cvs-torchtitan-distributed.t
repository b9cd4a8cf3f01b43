# ROCm/cvs dddd914's mi355 llama3_1_70b TorchTitan distributed config,
# unchanged (tests/fixtures/gate/cvs/SOURCE.md): CVS starts one torchrun per
# node from wrapper scripts; the import refuses it (exit 2), writing nothing
args: import cvs --user alice tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json: $.framework: "torchtitan_distributed": CVS starts one torchrun per node from wrapper scripts with its own node rank and rendezvous; assay imports torchtitan_single configs only (docs/import.md)
