# ROCm/cvs dddd914's mi355 llama3_1_8b TorchTitan config with a model_name
# that is not in CVS's model registry (the only change, SOURCE.md): refused,
# naming the models CVS knows (CVS itself would silently run llama3_3_70b)
args: import cvs --user alice tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config_model.json
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config_model.json: $.model_params.model_name: "llama4_8b" is not in CVS's TorchTitan model registry (llama3_1_8b, llama3_1_70b, llama3_1_405b, llama3_3_70b, deepseek_v2_lite, deepseek_v3_16b, qwen3_32b, mixtral_8x22b)
