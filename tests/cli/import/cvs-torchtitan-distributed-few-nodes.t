# The 4-node distributed TorchTitan config on a cluster file of two nodes:
# CVS starts node i's torchrun on the file's i-th host (hosts[i] for i
# below nnodes) and has no host for nodes 2 and 3; refused (exit 2)
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster.json tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json: $.config.nnodes: 4 nodes, but tests/fixtures/cli/import/cluster.json lists 2: CVS starts node i's torchrun on the file's i-th node and has none for the rest
