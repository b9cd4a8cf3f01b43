# a secret's value written in the suite file itself is refused as assay run refuses it
args: manifest --platforms configs/examples/mi355x-platforms.json --suite configs/examples/primus-2node.json --combo bf16-2node
env: HF_TOKEN=llama3.1-8b-pretrain
exit: 2
--- stdout
--- stderr
configs/examples/primus-2node.json: $.context.workload: holds the value of secret HF_TOKEN; secrets reach workloads only through assay's environment, remove it from the file
