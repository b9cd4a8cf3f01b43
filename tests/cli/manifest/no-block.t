# a command suite without a madengine block
args: manifest --platforms configs/examples/mi355x-platforms.json --suite configs/examples/primus-smoke.json --combo bf16-mbs1
exit: 2
--- stdout
--- stderr
configs/examples/primus-smoke.json: $: no "madengine" block: a manifest needs its model, docker_image and scripts (docs/manifest.md)
