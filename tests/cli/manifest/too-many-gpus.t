# more GPUs per node than the platform has
args: manifest --platforms configs/examples/mi355x-platforms.json --suite tests/fixtures/cli/manifest/gpus-16.json --combo bf16-2node
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/manifest/gpus-16.json: $.gpus_per_node: 16 GPUs per node, but platform mi355x has 8
