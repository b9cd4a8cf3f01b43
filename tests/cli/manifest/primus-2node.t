# the 2-node Primus case: the madengine build_manifest.json in the shape madengine's reader consumes (ROCm/madengine ef87d05 = v2.1.0-8: src/madengine/orchestration/run_orchestrator.py, src/madengine/execution/container_runner.py run_models_from_manifest, src/madengine/deployment/slurm.py; docs/manifest.md)
args: manifest --platforms configs/examples/mi355x-platforms.json --suite configs/examples/primus-2node.json --combo bf16-2node
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
      "args": "--model_repo primus_pyt_megatron_lm_train_llama-3.1-8b --precision BF16",
      "multiple_results": "perf_primus-megatron-Llama-3.1-8B.csv",
      "cred": "HF",
      "n_gpus": "8",
      "tags": ["pyt", "pretrain", "primus"]
    }
  },
  "context": {
    "docker_env_vars": {
      "NCCL_IB_HCA": "rdma0,rdma1",
      "NCCL_IB_GID_INDEX": "3",
      "NCCL_DEBUG": "WARN",
      "PRIMUS_MBS": "2",
      "PRIMUS_GBS": "256"
    }
  },
  "credentials_required": ["HF"],
  "deployment_config": {
    "slurm": {
      "partition": "mi355x",
      "account": "perf-ci",
      "time": "02:00:00",
      "exclusive": true,
      "nodes": 2,
      "gpus_per_node": 8,
      "network_interface": "eth0"
    },
    "distributed": {
      "launcher": "torchrun",
      "backend": "nccl",
      "nnodes": 2,
      "nproc_per_node": 8,
      "port": 29500
    },
    "env_vars": {
      "NCCL_DEBUG": "WARN",
      "NCCL_IB_DISABLE": "0",
      "NCCL_SOCKET_IFNAME": "eth0"
    }
  }
}
--- stderr
