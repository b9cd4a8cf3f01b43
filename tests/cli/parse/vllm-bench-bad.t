# A saved result without 'completed' is refused, naming the file and key
args: parse --input-format vllm-bench tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_config.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_config.json: $.completed: missing (expected a number >= 0)
