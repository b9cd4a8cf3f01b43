# ROCm/cvs dddd914's SGLang distributed config (two nodes) on a CVS cluster
# file of one node: CVS starts one server rank per node and has no node for
# rank 1; refused (exit 2) naming nnodes and the file, nothing written
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster-1.json tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.config.nnodes: 2 nodes, but tests/fixtures/cli/import/cluster-1.json lists 1: CVS starts one server rank per node and has none for the rest
