# The distributed TorchTitan config without --cluster: assay's local
# launcher runs one node and a suite's {NODE} is 0 on every node, so no
# faithful suite gives each node's torchrun its rank; refused (exit 2),
# naming --cluster, nothing written
args: import cvs --user alice tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json: $.framework: "torchtitan_distributed": give the CVS cluster file it runs on (--cluster FILE): each node's torchrun takes its node rank and the master address from the ssh launcher (docs/import.md)
