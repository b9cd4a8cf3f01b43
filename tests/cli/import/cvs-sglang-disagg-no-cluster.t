# ROCm/cvs dddd914's SGLang disaggregated config without --cluster: its
# prefill, decode and router roles run on their hosts only through the ssh
# launcher; refused (exit 2) naming --cluster, nothing written
args: import cvs --user alice tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated.json: $.config.prefill_node_list: prefill and decode servers and a router (sglang_disagg_distributed): give the CVS cluster file they run on (--cluster FILE): each role runs on its hosts through the ssh launcher (docs/import.md)
