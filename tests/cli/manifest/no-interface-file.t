# the same, from a registry of one platform
args: manifest --platforms tests/fixtures/cli/manifest/no-ifname-platforms.json --suite configs/examples/primus-2node.json --combo bf16-2node
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/manifest/no-ifname-platforms.json: $.platforms.mi355x: a 2-node job needs network.socket_ifname, the interface NCCL and Gloo bootstrap over (madengine's slurm.network_interface)
