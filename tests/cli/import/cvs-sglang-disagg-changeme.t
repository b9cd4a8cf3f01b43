# ROCm/cvs dddd914's SGLang disaggregated config (sglang_disagg_distributed)
# as shipped, with --cluster: its node lists, router host, coordinator
# addresses and NCCL settings are still "<changeme>", as CVS's loader
# refuses them; refused (exit 2) naming the first the suite needs (the
# placement comes first), nothing written
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster-4.json tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated.json: $.config.prefill_node_list[0]: unfilled placeholder "<changeme>": the suite needs this value
