# ROCm/cvs dddd914's mi355 llama3_1_70b TorchTitan distributed config,
# unchanged (tests/fixtures/gate/cvs/SOURCE.md), on a CVS cluster file of
# four nodes: what CVS's build_training_job_cmd puts in each node's wrapper
# script (cvs/lib/training/torchtitan/torchtitan_lib.py at dddd914): the
# TOML, torchrun with --nnodes/--node_rank and the c10d rendezvous at the
# master address, here the ssh launcher's NNODES, NODE_RANK, MASTER_ADDR and
# MASTER_PORT; the NCCL/GLOO variables CVS exports (NCCL_IB_HCA from
# nccl_ib_hca_list, empty when unset, as CVS exports it); each node's
# out-node{i}/training.log as results. master_address "<changeme>" is the
# launcher's (a note), enforce_thresholds false gives no thresholds gate.
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster-4.json tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json
exit: 0
--- stdout
{
  "kind": "command",
  "name": "mi355_llama3_1_70b_distributed_config",
  "description": "ROCm/cvs mi355_llama3_1_70b_distributed_config.json (torchtitan_distributed, MI355) as an assay suite, written by `assay import cvs`.",
  "combos": {
    "llama3_1_70b-mi355-4n-bs128-mbs1-fp8": {
      "MBS": "1",
      "GBS": "128",
      "PRECISION": "fp8",
      "FLOAT8": "true"
    },
    "llama3_1_70b-mi355-4n-bs128-mbs1-bf16": {
      "MBS": "1",
      "GBS": "128",
      "PRECISION": "bf16",
      "FLOAT8": "false"
    }
  },
  "runs": ["llama3_1_70b-mi355-4n-bs128-mbs1-fp8", "llama3_1_70b-mi355-4n-bs128-mbs1-bf16"],
  "argv": ["sh", "-c", "mkdir -p /home/alice/LOGS/torchtitan/torchtitan-logs/out-node\"$NODE_RANK\" /home/alice/SCRIPTS/torchtitan && printf '%s\\n' '[model]' 'name = \"llama3\"' 'flavor = \"70B\"' 'hf_assets_path = \"./assets/hf/llama3/Llama-3.1-70B\"' '[training]' 'dataset = \"c4\"' 'local_batch_size = {MBS}' 'global_batch_size = {GBS}' 'seq_len = 8192' 'steps = 10' 'dtype = \"bfloat16\"' '[optimizer]' 'lr = 3e-4' '[lr_scheduler]' 'warmup_steps = 200' '[parallelism]' 'data_parallel_shard_degree = 8' 'tensor_parallel_degree = 4' 'pipeline_parallel_degree = 1' 'context_parallel_degree = 1' 'expert_parallel_degree = 1' 'enable_async_tensor_parallel = false' '[activation_checkpoint]' 'mode = \"selective\"' '[compile]' 'enable = false' '[quantize.linear.float8]' 'enable_fsdp_float8_all_gather = {FLOAT8}' 'precompute_float8_dynamic_scale_for_fsdp = true' 'filter_fqns = [\"output\"]' '[comm]' 'init_timeout_seconds = 3600' > /home/alice/SCRIPTS/torchtitan/run_config.toml && cd /workspace/Primus/third_party/torchtitan && export PYTHONPATH=/workspace/Primus/third_party/torchtitan:\"$PYTHONPATH\" && exec torchrun --nnodes \"$NNODES\" --node_rank=\"$NODE_RANK\" --nproc_per_node 8 --rdzv_id 101 --rdzv_backend c10d --rdzv_endpoint \"$MASTER_ADDR:$MASTER_PORT\" --role rank --tee 3 --module torchtitan.train --job.config_file /home/alice/SCRIPTS/torchtitan/run_config.toml > /home/alice/LOGS/torchtitan/torchtitan-logs/out-node\"$NODE_RANK\"/training.log 2>&1"],
  "env": {
    "HSA_FORCE_FINE_GRAIN_PCIE": "1",
    "PYTORCH_HIP_ALLOC_CONF": "expandable_segments:True",
    "NCCL_IB_HCA": "",
    "NCCL_SOCKET_IFNAME": "ensf1np1",
    "GLOO_SOCKET_IFNAME": "ensf1np1",
    "NCCL_DEBUG": "ERROR",
    "NCCL_IB_GID_INDEX": "3"
  },
  "secrets": ["HF_TOKEN"],
  "parser": "torchtitan",
  "results": ["/home/alice/LOGS/torchtitan/torchtitan-logs/out-node0/training.log", "/home/alice/LOGS/torchtitan/torchtitan-logs/out-node1/training.log", "/home/alice/LOGS/torchtitan/torchtitan-logs/out-node2/training.log", "/home/alice/LOGS/torchtitan/torchtitan-logs/out-node3/training.log"],
  "nodes": 4,
  "gpus_per_node": 8,
  "training": {
    "final_step": 10
  },
  "launcher": {
    "type": "ssh",
    "cluster_file": "tests/fixtures/cli/import/cluster-4.json"
  }
}
--- stderr
tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json: $.scaling_baseline: not carried over: CVS's loader accepts it; no TorchTitan test of CVS reads it
tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json: $.config.hf_token_file: not carried over: assay reads no token files: set HF_TOKEN in assay's environment (the suite names it in $.secrets)
tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json: $.config.data_cache_dir: not carried over: CVS's TorchTitan library does not use it
tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json: $.config.rocm_dir: not carried over: CVS only logs the ROCm path; set $.env if the image needs it
tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json: $.config.nic_type: not carried over: CVS's TorchTitan distributed test never runs its NIC setup (exec_nic_setup_scripts)
tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json: $.config.master_address: not carried over: the ssh launcher's MASTER_ADDR (the first node's vpc_ip) is the rendezvous host, as CVS's default (the first host) is
tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json: $.config.verify_network_errors: not carried over: CVS's RDMA/ethtool error-counter comparison runs outside the training command
tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json: $.model_params.hf_model_name: not carried over: not a key CVS's TorchTitan library reads
tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json: $.sweep.combinations.*.name: not carried over: a combination's case id is its key
tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json: $.container: not carried over: the image was never filled in ("<changeme>"); fill it in and import again to get the suite's container block
tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json: $.model_params.model_name: not carried over: CVS first runs `python scripts/download_hf_assets.py --repo_id meta-llama/Llama-3.1-70B --local_dir ./assets/hf/llama3 --all` in /workspace/Primus/third_party/torchtitan; run it once in the image (with HF_TOKEN set) before the suite
tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json: $.model_params.dataset: not carried over: TorchTitan fetches "c4" itself when it starts; have it in the image or the HF cache
tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json: $.config.use_generated_config: not carried over: CVS writes each combination's TOML to scripts_dir/run_config.toml; the suite's command writes the same keys there (without CVS's blank lines) before torchrun
tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json: $.framework: not carried over: CVS stops ufw on every node before a distributed run (the rendezvous port must be reachable); do that on the nodes before the suite
tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json: $.config.log_dir: not carried over: assay reads every node's out-node{i}/training.log where it runs: keep log_dir on a file system the nodes share, as CVS's shipped paths under /home are
tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_config.json: $.enforce_thresholds: not carried over: false (record only): the suite names no thresholds file; judge a run with assay gate --thresholds tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_threshold.json
