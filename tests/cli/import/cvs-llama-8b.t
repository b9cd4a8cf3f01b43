# A real ROCm/cvs config (tests/fixtures/gate/cvs/SOURCE.md) as a command suite: combos, runs, env, thresholds; every key left out is named on stderr
args: import cvs --user alice tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single.json
exit: 0
--- stdout
{
  "kind": "command",
  "name": "mi325x_megatron_llama-3.1-8b_single",
  "description": "ROCm/cvs mi325x_megatron_llama-3.1-8b_single.json (megatron_single, MI325X) as an assay suite, written by `assay import cvs`. CVS runs it in a container whose image the config leaves unset (container.image): fill it in and import again, or run the suite inside that image.",
  "combos": {
    "llama3_1_8b-mi325-bs128-mbs4-fp8": {
      "MBS": "4",
      "GBS": "128",
      "PRECISION": "FP8",
      "PRECISION_ENV": "TE_FP8=1"
    },
    "llama3_1_8b-mi325-bs128-mbs4-bf16": {
      "MBS": "4",
      "GBS": "128",
      "PRECISION": "BF16",
      "PRECISION_ENV": "TE_FP8=0 TE_FP4=0"
    },
    "llama3_1_8b-mi325-bs128-mbs4-mxfp4": {
      "MBS": "4",
      "GBS": "128",
      "PRECISION": "MXFP4",
      "PRECISION_ENV": "TE_FP4=1 TE_FP4_RECIPE=mxfp4"
    },
    "llama3_1_8b-mi325-bs128-mbs4-mxfp8": {
      "MBS": "4",
      "GBS": "128",
      "PRECISION": "MXFP8",
      "PRECISION_ENV": "TE_FP8=1 TE_FP8_RECIPE=mxfp8"
    }
  },
  "runs": ["llama3_1_8b-mi325-bs128-mbs4-fp8", "llama3_1_8b-mi325-bs128-mbs4-bf16", "llama3_1_8b-mi325-bs128-mbs4-mxfp4", "llama3_1_8b-mi325-bs128-mbs4-mxfp8"],
  "argv": ["sh", "-c", "cd /workspace/Megatron-LM && exec env {PRECISION_ENV} bash examples/llama/train_llama3.sh"],
  "env": {
    "LOG_DIR": "/home/alice/LOGS/megatron",
    "DATA_CACHE_PATH": "/home/alice/cache",
    "TOKENIZER_MODEL": "meta-llama/Llama-3.1-8B",
    "RECOMPUTE": "0",
    "SEQ_LENGTH": "8192",
    "MBS": "{MBS}",
    "BS": "{GBS}",
    "TP": "1",
    "PP": "1",
    "FSDP": "0",
    "MODEL_SIZE": "8",
    "TOTAL_ITERS": "10",
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
    "thresholds": "tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single_threshold.json",
    "loss_curve": {
      "sample_every": 10,
      "milestones": [100, 500, 1000, 5000],
      "max_slope": 0.0,
      "enforce": true
    }
  }
}
--- stderr
tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single.json: $.container: not carried over: the image was never filled in ("<changeme>"); fill it in and import again to get the suite's container block
tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single.json: $.config.hf_token_file: not carried over: assay reads no token files: set HF_TOKEN in assay's environment (the suite names it in $.secrets)
tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single.json: $.config.scripts_dir: not carried over: assay starts the command itself; there are no wrapper scripts
tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single.json: $.config.rocm_dir: not carried over: CVS adds <rocm>/lib to LD_LIBRARY_PATH; set it in $.env if the image needs it
tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single.json: $.config.nic_type: not carried over: CVS's NIC setup (RDMA library copy) runs outside the training command
tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single.json: $.config.nccl_socket_ifname: not carried over: CVS sets NCCL_SOCKET_IFNAME for megatron_distributed runs only
tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single.json: $.config.gloo_socket_ifname: not carried over: CVS sets GLOO_SOCKET_IFNAME for megatron_distributed runs only
tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single.json: $.config.nccl_ib_gid_index: not carried over: CVS sets NCCL_IB_GID_INDEX for megatron_distributed runs only
tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single.json: $.config.nccl_debug: not carried over: CVS sets NCCL_DEBUG for megatron_distributed runs only
tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single.json: $.config.master_address: not carried over: CVS sets MASTER_ADDR for megatron_distributed runs only
tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single.json: $.config.verify_network_errors: not carried over: CVS's RDMA/ethtool error-counter comparison runs outside the training command
tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single.json: $.sweep.combinations.*.name: not carried over: a combination's case id is its key
