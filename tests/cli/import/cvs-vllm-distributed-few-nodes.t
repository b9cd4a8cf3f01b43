# The distributed vLLM config (two nodes) on a CVS cluster file of one
# node: CVS starts vllm serve on one node per rank and has no node for rank
# 1; refused (exit 2) naming nnodes and the file, nothing written
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster-1.json tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_distributed_filled.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_distributed_filled.json: $.params.nnodes: 2 nodes, but tests/fixtures/cli/import/cluster-1.json lists 1: CVS starts vllm serve on one node per rank and has none for the rest
