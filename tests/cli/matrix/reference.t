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
local-cpu          0           32       0              0
mi300x            32            8      20            248
mi325x            26           14      16            200
mi355x            42            6      28            336
total            466           94     276           3520

cases requested: 560 (runnable 466, unsupported 94)
shards: 276
ladder points: 3520
matrix_sha256: 294f735df7cc60ed2cb98a0974d03c7e547a62d02c364a772e9bcc89acb1c59c
catalog_sha256: bba882c4f9ff64e15a13e6ea8e0905075cc6addb2c20f3dca6c53649234b0e45
--- stderr
