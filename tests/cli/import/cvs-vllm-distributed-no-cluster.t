# ROCm/cvs dddd914's vLLM distributed config (filled) without --cluster:
# its server runs one vllm serve per node, and only the ssh launcher gives
# each node its rank; refused (exit 2), naming --cluster, nothing written
args: import cvs --user alice tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_distributed_filled.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_distributed_filled.json: $.params.nnodes: 2 nodes: give the CVS cluster file it runs on (--cluster FILE): each node's vllm serve takes its node rank from the ssh launcher (docs/import.md)
