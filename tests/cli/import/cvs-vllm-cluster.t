# A vLLM config with --cluster: an inference suite's server runs on the host
# assay runs on, so the ssh launcher would split it from its client: refused,
# nothing written
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster.json tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_filled.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_filled.json: $: --cluster tests/fixtures/cli/import/cluster.json: an inference suite starts its server on the host assay runs on; run the suite there, without --cluster
