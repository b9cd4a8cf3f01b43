# the JSON document of one case
args: matrix --platforms configs/platforms.json --sku local-cpu --backend shm --ep 2 --phase prefill --precision bf16 --json configs/sweep-local.json
exit: 0
--- stdout
{
  "schema": "assay.matrix/1",
  "suite": "local-ep",
  "inputs": {
    "platforms": {
      "file": "configs/platforms.json",
      "sha256": "48d1121316bc6fe2cb187d0066817c667d2848a293c7d212545d06a41cfa669c"
    },
    "sweep": {
      "file": "configs/sweep-local.json",
      "sha256": "d21ea58e8c4893ad31b856b4462ef6c37682a4d817037ceec307cf42a6c6bbfc"
    }
  },
  "timing": {
    "profile": "quick",
    "trials": 16,
    "iters_per_trial": 8,
    "warmups_per_trial": 4,
    "chain_trials": 2,
    "chain_pairs": 32,
    "chain_drop": 4
  },
  "counts": {
    "requested": 1,
    "runnable": 1,
    "unsupported": 0,
    "shards": 1,
    "ladder_points": 2
  },
  "matrix_sha256": "b8f72a3bb4d25358236cf66ba8715665e0070fffc395468848883e9b1ca46abc",
  "catalog_sha256": "70a154381608de3a76d92394ecf9fcc3d0996e3fd2c9559b5ad06167d08933ac",
  "shards": [
    {
      "id": "local-cpu-shm-bf16-n1",
      "sku": "local-cpu",
      "backend": "shm",
      "mode": "normal",
      "precision": "bf16",
      "nodes": 1,
      "cases": ["local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-bf16"]
    }
  ],
  "cases": [
    {
      "id": "local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-bf16",
      "sku": "local-cpu",
      "backend": "shm",
      "workload": "deepseek-v3",
      "mode": "normal",
      "phase": "prefill",
      "routing": "uniform",
      "precision": "bf16",
      "ep": 2,
      "nodes": 1,
      "gpus_per_node": 4,
      "scale_up_domain": 2,
      "scope": "scale-up",
      "topology": "single-node",
      "transport": "shared-memory",
      "disposition": "runnable",
      "tokens": [1024, 2048],
      "hidden": 7168,
      "experts": 256,
      "topk": 8,
      "seed": 67,
      "timing": {
        "profile": "quick",
        "trials": 16,
        "iters_per_trial": 8,
        "warmups_per_trial": 4,
        "chain_trials": 2,
        "chain_pairs": 32,
        "chain_drop": 4
      },
      "reason": null,
      "shard": "local-cpu-shm-bf16-n1"
    }
  ]
}
--- stderr
