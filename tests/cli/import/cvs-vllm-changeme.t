# The shipped vLLM config leaves model.id "<changeme>": refused, naming it
args: import cvs --user alice tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_config.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_config.json: $.model.id: unfilled placeholder "<changeme>": the suite needs this value
