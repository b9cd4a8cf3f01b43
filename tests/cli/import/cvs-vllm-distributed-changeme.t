# ROCm/cvs dddd914's vllm/mi300x_vllm_llama31-70b_fp8_distributed.json as
# shipped: its ib_netdev (and master_addr) are "<changeme>"; refused (exit
# 2) at the first, nothing written
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster.json tests/fixtures/inference/cvs/mi300x_vllm_llama31-70b_fp8_distributed.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/mi300x_vllm_llama31-70b_fp8_distributed.json: $.roles.server.ib_netdev: unfilled placeholder "<changeme>": the suite needs this value
