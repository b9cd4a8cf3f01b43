# ROCm/cvs dddd914's SGLang disaggregated config (prefill and decode servers
# and a router, sglang_disagg_distributed), unchanged: not imported yet;
# refused (exit 2) naming the key that makes it one and where a suite of
# role servers is described, nothing written
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster.json tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated.json: $.config.prefill_node_list: prefill and decode servers and a router (sglang_disagg_distributed): assay does not import CVS's disaggregated SGLang configs yet (a suite's "servers" runs them: docs/inference.md, "Role servers")
