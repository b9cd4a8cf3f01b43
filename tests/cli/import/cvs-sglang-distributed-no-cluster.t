# ROCm/cvs dddd914's SGLang distributed config (tests/fixtures/inference/cvs/SOURCE.md)
# without --cluster: its server runs one rank per node, and only the ssh
# launcher gives each node its rank and the head's address; refused (exit 2),
# naming --cluster, nothing written
args: import cvs --user alice tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed.json: $.config.nnodes: 2 nodes (sglang_distributed): give the CVS cluster file it runs on (--cluster FILE): each node's sglang.launch_server takes its node rank and the head's address from the ssh launcher (docs/import.md)
