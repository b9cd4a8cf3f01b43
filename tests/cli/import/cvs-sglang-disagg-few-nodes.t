# ROCm/cvs dddd914's SGLang disaggregated config, filled in
# (tests/fixtures/inference/cvs/SOURCE.md: two prefill and two decode
# nodes), on a CVS cluster file of two nodes: the suite places prefill on
# its first two hosts and decode on the next two, and it has none for
# decode; refused (exit 2) naming decode_node_list and the file
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster.json tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.config.decode_node_list: 2 prefill and 2 decode nodes, but tests/fixtures/cli/import/cluster.json lists 2: the suite starts prefill on its first 2 hosts and decode on the next 2
