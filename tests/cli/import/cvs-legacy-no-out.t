# An older ROCm/cvs config's result_dict minimums go into a thresholds file beside the suite, so --out is needed
args: import cvs --user alice --gpu mi325 tests/fixtures/cli/import/legacy/filled_mi3xx_megatron_llama_single.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/import/legacy/filled_mi3xx_megatron_llama_single.json: $.model_params.single_node: an older config's result_dict minimums go into a thresholds file beside the suite: give --out
