# the reference registry and sweep: counts and digests recorded in docs/matrix.md
args: matrix --platforms configs/platforms.json configs/sweep-ep.json
exit: 0
--- stdout
suite collectivex-ep: workload deepseek-v3 (hidden 7168, experts 256, top-8, seed 67), routing uniform, timing reference

sku         runnable  unsupported  shards  ladder points
b200              64            8      36            472
b300              42           14      24            312
gb200             56            0      32            416
gb300             56            0      32            416
h100              74            6      44            560
h200              74            6      44            560
local-cpu          0           48       0              0
mi300x            32            8      20            248
mi325x            26           14      16            200
mi355x            42            6      28            336
total            466          110     276           3520

cases requested: 576 (runnable 466, unsupported 110)
shards: 276
ladder points: 3520
matrix_sha256: 5f18bbf9b3067938adf6b5b597ac6cbd75170bd5820a6a5720a45065cf9a16d0
catalog_sha256: 39e0d657a123886544d960e6559cd3343e89fa4429c408e24b923ad91f27d9e2
--- stderr
