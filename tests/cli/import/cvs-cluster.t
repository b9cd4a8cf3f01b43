# --cluster: the distributed config runs on a CVS cluster file's two nodes with the ssh launcher; NNODES, NODE_RANK and MASTER_ADDR are the launcher's, the config's container block kept (the launcher runs it on every node)
args: import cvs --user alice --gpus-per-node 4 --cluster tests/fixtures/cli/import/cluster.json tests/fixtures/cli/import/distributed.json
exit: 0
--- stdout
{
  "kind": "command",
  "name": "distributed",
  "description": "ROCm/cvs distributed.json (megatron_distributed, MI325X) as an assay suite, written by `assay import cvs`.",
  "combos": {
    "llama3_3_70b-mi325-bs64-mbs1-fp8": {
      "MBS": "1",
      "GBS": "64",
      "PRECISION": "FP8",
      "PRECISION_ENV": "TE_FP8=1"
    },
    "llama3_3_70b-mi325-bs64-mbs1-bf16": {
      "MBS": "1",
      "GBS": "64",
      "PRECISION": "BF16",
      "PRECISION_ENV": "TE_FP8=0 TE_FP4=0"
    }
  },
  "runs": ["llama3_3_70b-mi325-bs64-mbs1-fp8", "llama3_3_70b-mi325-bs64-mbs1-bf16"],
  "container": {
    "runtime": "docker",
    "image": "rocm/megatron-lm:v25.9",
    "devices": "amd",
    "mounts": ["/home/alice:/home/alice", "/dev/infiniband:/dev/infiniband", "/usr/local/lib/libbnxt_re-rdmav34.so:/usr/lib/x86_64-linux-gnu/libibverbs/libbnxt_re-rdmav34.so.host", "/lib/libibverbs.d:/lib/libibverbs.d"],
    "options": ["--privileged"]
  },
  "argv": ["sh", "-c", "cd /workspace/Megatron-LM && exec env {PRECISION_ENV} bash examples/llama/train_llama3.sh"],
  "env": {
    "LOG_DIR": "/home/alice/LOGS/megatron",
    "DATA_CACHE_PATH": "/home/alice/cache",
    "NCCL_IB_HCA_LIST": "bnxt_re0,bnxt_re1",
    "NCCL_IB_HCA": "bnxt_re0,bnxt_re1",
    "NCCL_SOCKET_IFNAME": "ens1",
    "GLOO_SOCKET_IFNAME": "ens1",
    "NCCL_IB_GID_INDEX": "3",
    "NCCL_DEBUG": "ERROR",
    "TOKENIZER_MODEL": "meta-llama/Llama-3.3-70B-Instruct",
    "RECOMPUTE": "0",
    "SEQ_LENGTH": "8192",
    "MBS": "{MBS}",
    "BS": "{GBS}",
    "TP": "8",
    "PP": "1",
    "FSDP": "0",
    "MODEL_SIZE": "70",
    "TOTAL_ITERS": "10",
    "MOCK_DATA": "1",
    "EXP_NAME": "megatron_training",
    "TORCH_NCCL_ASYNC_ERROR_HANDLING": "0"
  },
  "secrets": ["HF_TOKEN"],
  "parser": "megatron",
  "context": {
    "workload": "llama3.3_70B"
  },
  "nodes": 2,
  "gpus_per_node": 4,
  "training": {
    "seq_len": 8192,
    "warmup": "1"
  },
  "gates": {
    "thresholds": "tests/fixtures/cli/import/../../gate/cvs/mi325x_megatron_llama-3.3-70b_distributed_threshold.json",
    "loss_curve": {
      "sample_every": 10,
      "milestones": [100, 500, 1000, 5000],
      "max_slope": 0.0,
      "enforce": true
    }
  },
  "launcher": {
    "type": "ssh",
    "cluster_file": "tests/fixtures/cli/import/cluster.json"
  }
}
--- stderr
tests/fixtures/cli/import/distributed.json: $.scaling_baseline: not carried over: assay's scaling gate compares with a baseline combination of the same run ($.gates.scaling, docs/suite.md)
tests/fixtures/cli/import/distributed.json: $.config.hf_token_file: not carried over: assay reads no token files: set HF_TOKEN in assay's environment (the suite names it in $.secrets)
tests/fixtures/cli/import/distributed.json: $.config.scripts_dir: not carried over: assay starts the command itself; there are no wrapper scripts
tests/fixtures/cli/import/distributed.json: $.config.rocm_dir: not carried over: CVS adds <rocm>/lib to LD_LIBRARY_PATH; set it in $.env if the image needs it
tests/fixtures/cli/import/distributed.json: $.config.nic_type: not carried over: CVS's NIC setup (RDMA library copy) runs outside the training command
tests/fixtures/cli/import/distributed.json: $.config.hca_id_pattern: not carried over: CVS's ibv_devinfo check runs outside the training command
tests/fixtures/cli/import/distributed.json: $.config.verify_network_errors: not carried over: CVS's RDMA/ethtool error-counter comparison runs outside the training command
tests/fixtures/cli/import/distributed.json: $.sweep.combinations.*.name: not carried over: a combination's case id is its key
tests/fixtures/cli/import/distributed.json: $.sweep.combinations.*.result_dict: not carried over: limits come from the threshold file (CVS's loader refuses this key)
tests/fixtures/cli/import/distributed.json: $.container: not carried over: name and lifetime: assay runs one container per case, named after the run and the case
tests/fixtures/cli/import/distributed.json: $.config.master_address: not carried over: the ssh launcher sets MASTER_ADDR to the first node's vpc_ip
