# enforce_thresholds false (no thresholds gate), an image, another model family (precision without variables), result_dict in a combo
args: import cvs --user alice tests/fixtures/cli/import/record-only.json
exit: 0
--- stdout
{
  "kind": "command",
  "name": "record-only",
  "description": "ROCm/cvs record-only.json (megatron_single, MI325X) as an assay suite, written by `assay import cvs`.",
  "combos": {
    "llama3_1_8b-mi325-bs128-mbs4-fp8": {
      "MBS": "4",
      "GBS": "128",
      "PRECISION": "FP8",
      "PRECISION_ENV": "PR=fp8"
    },
    "llama3_1_8b-mi325-bs128-mbs4-bf16": {
      "MBS": "4",
      "GBS": "128",
      "PRECISION": "BF16",
      "PRECISION_ENV": "PR=bf16"
    },
    "llama3_1_8b-mi325-bs128-mbs4-mxfp4": {
      "MBS": "4",
      "GBS": "128",
      "PRECISION": "MXFP4",
      "PRECISION_ENV": "TE_FP8=1"
    },
    "llama3_1_8b-mi325-bs128-mbs4-mxfp8": {
      "MBS": "4",
      "GBS": "128",
      "PRECISION": "MXFP8",
      "PRECISION_ENV": "TE_FP8=1"
    }
  },
  "runs": ["llama3_1_8b-mi325-bs128-mbs4-fp8", "llama3_1_8b-mi325-bs128-mbs4-bf16", "llama3_1_8b-mi325-bs128-mbs4-mxfp4", "llama3_1_8b-mi325-bs128-mbs4-mxfp8"],
  "container": {
    "runtime": "docker",
    "image": "rocm/megatron-lm:v25.9",
    "devices": "amd",
    "mounts": ["/home/alice:/home/alice", "/dev/infiniband:/dev/infiniband"],
    "options": ["--privileged"]
  },
  "argv": ["sh", "-c", "cd /workspace/Megatron-LM && exec env {PRECISION_ENV} bash examples/deepseek_v2/train_deepseekv2.sh"],
  "env": {
    "LOG_DIR": "/home/alice/LOGS/megatron",
    "DATA_CACHE_PATH": "/home/alice/cache",
    "TOKENIZER_MODEL": "deepseek-ai/DeepSeek-V2-Lite",
    "RECOMPUTE": "0",
    "SEQ_LENGTH": "8192",
    "MBS": "{MBS}",
    "GBS": "{GBS}",
    "TP": "1",
    "PP": "1",
    "FSDP": "0",
    "MODEL_SIZE": "8",
    "TRAIN_ITERS": "10",
    "MOCK_DATA": "1",
    "EXP_NAME": "megatron_training",
    "TORCH_NCCL_ASYNC_ERROR_HANDLING": "0"
  },
  "secrets": ["HF_TOKEN"],
  "parser": "megatron",
  "context": {
    "workload": "llama3.1_8B"
  },
  "nodes": 1,
  "gpus_per_node": 8,
  "training": {
    "seq_len": 8192,
    "warmup": "1"
  },
  "gates": {
    "loss_curve": {
      "sample_every": 10,
      "milestones": [100, 500, 1000, 5000],
      "max_slope": 0.0,
      "enforce": true
    }
  }
}
--- stderr
tests/fixtures/cli/import/record-only.json: $.config.hf_token_file: not carried over: assay reads no token files: set HF_TOKEN in assay's environment (the suite names it in $.secrets)
tests/fixtures/cli/import/record-only.json: $.config.scripts_dir: not carried over: assay starts the command itself; there are no wrapper scripts
tests/fixtures/cli/import/record-only.json: $.config.rocm_dir: not carried over: CVS adds <rocm>/lib to LD_LIBRARY_PATH; set it in $.env if the image needs it
tests/fixtures/cli/import/record-only.json: $.config.nic_type: not carried over: CVS's NIC setup (RDMA library copy) runs outside the training command
tests/fixtures/cli/import/record-only.json: $.config.nccl_socket_ifname: not carried over: CVS sets NCCL_SOCKET_IFNAME for megatron_distributed runs only
tests/fixtures/cli/import/record-only.json: $.config.gloo_socket_ifname: not carried over: CVS sets GLOO_SOCKET_IFNAME for megatron_distributed runs only
tests/fixtures/cli/import/record-only.json: $.config.nccl_ib_gid_index: not carried over: CVS sets NCCL_IB_GID_INDEX for megatron_distributed runs only
tests/fixtures/cli/import/record-only.json: $.config.nccl_debug: not carried over: CVS sets NCCL_DEBUG for megatron_distributed runs only
tests/fixtures/cli/import/record-only.json: $.config.master_address: not carried over: CVS sets MASTER_ADDR for megatron_distributed runs only
tests/fixtures/cli/import/record-only.json: $.config.verify_network_errors: not carried over: CVS's RDMA/ethtool error-counter comparison runs outside the training command
tests/fixtures/cli/import/record-only.json: $.sweep.combinations.*.name: not carried over: a combination's case id is its key
tests/fixtures/cli/import/record-only.json: $.sweep.combinations.*.result_dict: not carried over: limits come from the threshold file (CVS's loader refuses this key)
tests/fixtures/cli/import/record-only.json: $.sweep.combinations.llama3_1_8b-mi325-bs128-mbs4-mxfp4.precision: not carried over: "MXFP4" has no variables for this model family; CVS then sets TE_FP8=1, and so does the suite
tests/fixtures/cli/import/record-only.json: $.sweep.combinations.llama3_1_8b-mi325-bs128-mbs4-mxfp8.precision: not carried over: "MXFP8" has no variables for this model family; CVS then sets TE_FP8=1, and so does the suite
tests/fixtures/cli/import/record-only.json: $.container: not carried over: name and lifetime: assay runs one container per case, named after the run and the case
tests/fixtures/cli/import/record-only.json: $.enforce_thresholds: not carried over: false (record only): the suite names no thresholds file, and every row is stored unjudged
