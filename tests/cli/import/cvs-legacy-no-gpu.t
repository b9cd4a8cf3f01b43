# An older ROCm/cvs config has settings per GPU type (CVS reads it from rocm-smi): without --gpu, exit 2 naming the section
args: import cvs --user alice --out /nonexistent/suite.json tests/fixtures/cli/import/legacy/filled_mi3xx_megatron_llama_single.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/import/legacy/filled_mi3xx_megatron_llama_single.json: $.model_params.single_node: settings for GPU types mi300x, mi325: CVS takes the type from rocm-smi on the node; give --gpu TYPE
