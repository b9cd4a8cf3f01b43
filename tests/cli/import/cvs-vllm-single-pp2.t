# The filled distributed vLLM config with nnodes 1 but pipeline_parallel_size
# 2: CVS's loader refuses it (vllm_config_loader.py,
# _check_distributed_consistency); before, the suite served TP 8 alone while
# its cells said PP 2. Refused (exit 2), nothing written
args: import cvs --user alice tests/fixtures/inference/cvs/vllm_single_pp2.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/vllm_single_pp2.json: $.params.pipeline_parallel_size: 2 on one node: CVS refuses it (pipeline stages split the model across nodes: nnodes > 1 expected)
