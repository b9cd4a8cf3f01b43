# The filled distributed vLLM config with master_addr "<changeme>" as
# shipped: CVS passes master_addr to every rank as --master-addr and does not
# derive it from the cluster file; refused (exit 2), nothing written
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster.json tests/fixtures/inference/cvs/vllm_distributed_master_changeme.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/vllm_distributed_master_changeme.json: $.params.master_addr: unfilled placeholder "<changeme>": the suite needs this value
