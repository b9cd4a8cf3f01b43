# Node counts are checked before anything runs: the launcher's gpus_per_node
# must agree with the platform registry
args: run --dry-run tests/fixtures/cli/run/slurm-gpus.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/slurm-gpus.json: $.launcher: gpus_per_node 8 disagrees with the platform registry (configs/platforms.json: $.platforms.local-cpu.gpus_per_node is 4)
