# A two-node vLLM config with pipeline_parallel_size 1 (mp backend): CVS's
# loader refuses it (vllm_config_loader.py, _check_distributed_consistency);
# refused (exit 2), nothing written
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster.json tests/fixtures/inference/cvs/vllm_distributed_pp1.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/vllm_distributed_pp1.json: $.params.pipeline_parallel_size: 1 on 2 nodes: CVS refuses it (its multi-node server splits the model into pipeline stages across the nodes: > 1 expected)
