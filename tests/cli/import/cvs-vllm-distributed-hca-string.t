# The distributed vLLM config with ib_hca_devices "rdma0,rdma1" (a string
# other than "auto"): CVS's loader takes "auto" or a list of names
# (vllm_config_loader.py, ServerRole); refused (exit 2), nothing written
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster.json tests/fixtures/inference/cvs/vllm_distributed_hca_string.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/vllm_distributed_hca_string.json: $.roles.server.ib_hca_devices: expected "auto" or an array of device names (strings), got "rdma0,rdma1"
