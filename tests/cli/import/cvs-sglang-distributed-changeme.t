# ROCm/cvs dddd914's SGLang distributed config as shipped, with --cluster:
# its NCCL interface settings are still "<changeme>" and the server's
# environment needs them; refused (exit 2) naming the first, nothing written
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster.json tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed.json: $.config.nccl_ib_hca: unfilled placeholder "<changeme>": the suite needs this value
