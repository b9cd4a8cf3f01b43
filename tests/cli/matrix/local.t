# the local sweep on the local-cpu SKU
args: matrix --platforms configs/platforms.json --sku local-cpu configs/sweep-local.json
exit: 0
--- stdout
suite local-ep: workload deepseek-v3 (hidden 7168, experts 256, top-8, seed 67), routing uniform, timing quick

sku         runnable  unsupported  shards  ladder points
local-cpu         16            0       4             80
total             16            0       4             80

cases requested: 16 (runnable 16, unsupported 0)
shards: 4
ladder points: 80
matrix_sha256: 9677a21e2994b45a9702d2290391b1b223e6784d24d26fc9602b6ab1904dd0b8
catalog_sha256: 6b7f8358ebce3300df269830dad7bfd5ecf5a8bf5252bd9003ac86151eb40c1e
--- stderr
