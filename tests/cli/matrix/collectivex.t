# CollectiveX's own platform_config.json and sweep.json, detected from their
# content: the counts CollectiveX's sweep_matrix.py prints (142 runnable, 26
# unsupported, 88 shards)
args: matrix --platforms tests/fixtures/matrix/collectivex/platform_config.json tests/fixtures/matrix/collectivex/sweep.json
exit: 0
--- stdout
suite ep-core: workload deepseek-v3 (hidden 7168, experts 256, top-8, seed 67), routing uniform, timing reference

sku          runnable  unsupported  shards  ladder points
b200-nscale        21            4      14            168
b300               11            2       6             80
gb200              21            0      13            162
gb300              21            0      13            162
h100-dgxc          19            4      12            148
h200-dgxc          19            4      12            148
mi300x-tw          10            4       6             76
mi325x-tw          10            4       6             76
mi355x             10            4       6             76
total             142           26      88           1096

cases requested: 168 (runnable 142, unsupported 26)
shards: 88
ladder points: 1096
matrix_sha256: 7c3fdd7def3cc5566fbcd22700fbb2d70f2e6117f05ca83ba640b88a8ff5f892
catalog_sha256: 95de5e84195f0da9f7c17672ee8f159ad4779a398fa53ea8b1364c2941ddc88d
--- stderr
