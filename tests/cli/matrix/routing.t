# the routing factor: the same cases once per routing, each its own case id
args: matrix --platforms configs/platforms.json --sku local-cpu --list tests/fixtures/cli/matrix/routing.json
exit: 0
--- stdout
case                                                             disposition    ep nodes  scope     topology             shard or reason
local-cpu-mpi-deepseek-v3-normal-decode-ep2-hot-8-0.5-bf16       runnable        2     1  scale-up  single-node          local-cpu-mpi-bf16-n1
local-cpu-mpi-deepseek-v3-normal-decode-ep2-uniform-bf16         runnable        2     1  scale-up  single-node          local-cpu-mpi-bf16-n1
local-cpu-mpi-deepseek-v3-normal-decode-ep2-zipf-1.2-bf16        runnable        2     1  scale-up  single-node          local-cpu-mpi-bf16-n1
local-cpu-shm-deepseek-v3-normal-decode-ep2-hot-8-0.5-bf16       runnable        2     1  scale-up  single-node          local-cpu-shm-bf16-n1
local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16         runnable        2     1  scale-up  single-node          local-cpu-shm-bf16-n1
local-cpu-shm-deepseek-v3-normal-decode-ep2-zipf-1.2-bf16        runnable        2     1  scale-up  single-node          local-cpu-shm-bf16-n1
--- stderr
