# the value of a secret the suite names must never reach the manifest: here it is one of the platform's RDMA devices; nothing written
args: manifest --platforms configs/examples/mi355x-platforms.json --suite configs/examples/primus-2node.json --combo bf16-2node --out /nonexistent/never-written.json
env: HF_TOKEN=rdma0
exit: 2
--- stdout
--- stderr
configs/examples/mi355x-platforms.json: $: the manifest would hold the value of secret HF_TOKEN (set in the environment)
