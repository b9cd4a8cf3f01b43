# a launcher madengine does not know
args: manifest --platforms configs/examples/mi355x-platforms.json --suite tests/fixtures/cli/manifest/bad-launcher.json --combo bf16-2node
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/manifest/bad-launcher.json: $.madengine.launcher: expected one of "torchrun", "torchtitan", "deepspeed", "megatron-lm", "primus", "vllm", "sglang", got "mpirun"
