# the summary names every routing of the factor
args: matrix --platforms configs/platforms.json --sku local-cpu tests/fixtures/cli/matrix/routing.json
exit: 0
--- stdout
suite local-ep-routing: workload deepseek-v3 (hidden 7168, experts 256, top-8, seed 67), routing uniform, zipf:1.2, hot:8:0.5, timing quick

sku         runnable  unsupported  shards  ladder points
local-cpu          6            0       2             18
total              6            0       2             18

cases requested: 6 (runnable 6, unsupported 0)
shards: 2
ladder points: 18
matrix_sha256: 4ca316fcc96bc2a49f54b6691e2cc6efd1effb2167b33c6285618fc00b21e0b8
catalog_sha256: 3f31ceb370474c2dba4ce38eac70033a71f1b2a1fed68f3548001c2a78406f92
--- stderr
