# one shard's cases
args: matrix --platforms configs/platforms.json --shard local-cpu-shm-fp8-n1 configs/sweep-local.json
exit: 0
--- stdout
case                                                             disposition    ep nodes  scope     topology             shard
local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-fp8          runnable        2     1  scale-up  single-node          local-cpu-shm-fp8-n1
local-cpu-shm-deepseek-v3-normal-decode-ep4-uniform-fp8          runnable        4     1  scale-up  single-node          local-cpu-shm-fp8-n1
local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-fp8         runnable        2     1  scale-up  single-node          local-cpu-shm-fp8-n1
local-cpu-shm-deepseek-v3-normal-prefill-ep4-uniform-fp8         runnable        4     1  scale-up  single-node          local-cpu-shm-fp8-n1
--- stderr
