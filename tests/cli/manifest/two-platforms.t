# --platform picks one platform of a registry: mi300x's partition, interface and RDMA devices
args: manifest --platforms tests/fixtures/cli/manifest/two-platforms.json --platform mi300x --suite configs/examples/primus-2node.json --combo fp8-2node
exit: 0
--- stdout
{
  "built_images": {
    "primus_pyt_megatron_lm_train_llama-3.1-8b": {
      "docker_image": "rocm/primus:v25.9",
      "local_image": true,
      "dockerfile": "docker/primus_megatron_train.ubuntu.amd.Dockerfile"
    }
  },
  "built_models": {
    "primus_pyt_megatron_lm_train_llama-3.1-8b": {
      "name": "primus_pyt_megatron_lm_train_llama-3.1-8b",
      "docker_image": "rocm/primus:v25.9",
      "dockerfile": "docker/primus_megatron_train.ubuntu.amd.Dockerfile",
      "scripts": "scripts/primus/megatron-lm/run.sh",
      "args": "--model_repo primus_pyt_megatron_lm_train_llama-3.1-8b --precision FP8",
      "multiple_results": "perf_primus-megatron-Llama-3.1-8B.csv",
      "cred": "HF",
      "n_gpus": "8",
      "tags": ["pyt", "pretrain", "primus"]
    }
  },
  "context": {
    "docker_env_vars": {
      "NCCL_IB_HCA": "mlx5_0,mlx5_1",
      "NCCL_IB_GID_INDEX": "3",
      "NCCL_DEBUG": "WARN",
      "PRIMUS_MBS": "2",
      "PRIMUS_GBS": "256"
    }
  },
  "credentials_required": ["HF"],
  "deployment_config": {
    "slurm": {
      "partition": "mi300x",
      "exclusive": true,
      "nodes": 2,
      "gpus_per_node": 8,
      "network_interface": "ib0"
    },
    "distributed": {
      "launcher": "torchrun",
      "backend": "nccl",
      "nnodes": 2,
      "nproc_per_node": 8
    },
    "env_vars": {
      "NCCL_DEBUG": "WARN",
      "NCCL_IB_DISABLE": "0",
      "NCCL_SOCKET_IFNAME": "ib0"
    }
  }
}
--- stderr
