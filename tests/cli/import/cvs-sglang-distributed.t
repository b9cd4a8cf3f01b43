# ROCm/cvs dddd914's SGLang distributed config (tests/fixtures/inference/cvs/SOURCE.md):
# two nodes, refused, naming the key (only single-node SGLang configs are imported)
args: import cvs --user alice tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed.json: $.config.nnodes: 2 nodes: assay imports CVS's single-node SGLang configs (sglang_single), not its distributed ones
