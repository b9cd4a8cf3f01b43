# ROCm/cvs dddd914's mi355 llama3_1_8b TorchTitan config, unchanged
# (tests/fixtures/gate/cvs/SOURCE.md), as a command suite: combos keyed
# MBS/GBS/PRECISION (FLOAT8 as CVS's PRECISION_FLAGS set it), a command that
# writes the TOML CVS's _build_toml_config generates and starts torchrun as
# build_training_job_cmd does, the log at log_dir/torchtitan-logs/out-node0,
# parser torchtitan; enforce_thresholds false, so no thresholds gate. The
# model download, dataset and TOML step CVS does around the command are notes.
args: import cvs --user alice tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config.json
exit: 0
--- stdout
{
  "kind": "command",
  "name": "mi355_llama3_1_8b_single_config",
  "description": "ROCm/cvs mi355_llama3_1_8b_single_config.json (torchtitan_single, mi355) as an assay suite, written by `assay import cvs`.",
  "combos": {
    "llama3_1_8b-mi355-bs8-mbs1-bf16": {
      "MBS": "1",
      "GBS": "8",
      "PRECISION": "bf16",
      "FLOAT8": "false"
    },
    "llama3_1_8b-mi355-bs8-mbs1-fp8": {
      "MBS": "1",
      "GBS": "8",
      "PRECISION": "fp8",
      "FLOAT8": "true"
    }
  },
  "runs": ["llama3_1_8b-mi355-bs8-mbs1-bf16", "llama3_1_8b-mi355-bs8-mbs1-fp8"],
  "argv": ["sh", "-c", "mkdir -p /home/alice/LOG_DIR/torchtitan-logs/out-node0 /home/alice/SCRIPTS && printf '%s\\n' '[model]' 'name = \"llama3\"' 'flavor = \"8B\"' 'hf_assets_path = \"./assets/hf/llama3/Llama-3.1-8B\"' '[training]' 'dataset = \"c4\"' 'local_batch_size = {MBS}' 'global_batch_size = {GBS}' 'seq_len = 8192' 'steps = 10' 'dtype = \"bfloat16\"' '[optimizer]' 'lr = 3e-4' '[lr_scheduler]' 'warmup_steps = 200' '[parallelism]' 'data_parallel_shard_degree = 8' 'tensor_parallel_degree = 1' 'pipeline_parallel_degree = 1' 'context_parallel_degree = 1' 'expert_parallel_degree = 1' 'enable_async_tensor_parallel = false' '[activation_checkpoint]' 'mode = \"selective\"' '[compile]' 'enable = false' '[quantize.linear.float8]' 'enable_fsdp_float8_all_gather = {FLOAT8}' 'precompute_float8_dynamic_scale_for_fsdp = false' 'filter_fqns = [\"output\"]' '[comm]' 'init_timeout_seconds = 3600' > /home/alice/SCRIPTS/run_config.toml && cd /workspace/Primus/third_party/torchtitan && export PYTHONPATH=/workspace/Primus/third_party/torchtitan:\"$PYTHONPATH\" && exec torchrun --nnodes 1 --node_rank=0 --nproc_per_node 8 --rdzv_id 101 --rdzv_backend c10d --rdzv_endpoint 127.0.0.1:29500 --role rank --tee 3 --module torchtitan.train --job.config_file /home/alice/SCRIPTS/run_config.toml > /home/alice/LOG_DIR/torchtitan-logs/out-node0/training.log 2>&1"],
  "env": {
    "HSA_FORCE_FINE_GRAIN_PCIE": "1",
    "PYTORCH_HIP_ALLOC_CONF": "expandable_segments:True"
  },
  "secrets": ["HF_TOKEN"],
  "parser": "torchtitan",
  "results": ["/home/alice/LOG_DIR/torchtitan-logs/out-node0/training.log"],
  "nodes": 1,
  "gpus_per_node": 8,
  "training": {
    "final_step": 10
  }
}
--- stderr
tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config.json: $.config.hf_token_file: not carried over: assay reads no token files: set HF_TOKEN in assay's environment (the suite names it in $.secrets)
tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config.json: $.config.data_cache_dir: not carried over: CVS's TorchTitan library does not use it
tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config.json: $.config.rocm_dir: not carried over: CVS only logs the ROCm path; set $.env if the image needs it
tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config.json: $.config.nic_type: not carried over: CVS uses it for torchtitan_distributed runs only
tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config.json: $.config.nccl_socket_ifname: not carried over: CVS uses it for torchtitan_distributed runs only
tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config.json: $.config.gloo_socket_ifname: not carried over: CVS uses it for torchtitan_distributed runs only
tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config.json: $.config.nccl_ib_gid_index: not carried over: CVS uses it for torchtitan_distributed runs only
tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config.json: $.config.nccl_debug: not carried over: CVS uses it for torchtitan_distributed runs only
tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config.json: $.config.verify_network_errors: not carried over: CVS compares NIC error counters for distributed runs only
tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config.json: $.model_params.hf_model_name: not carried over: not a key CVS's TorchTitan library reads
tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config.json: $.sweep.combinations.*.name: not carried over: a combination's case id is its key
tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config.json: $.container: not carried over: the image was never filled in ("<changeme>"); fill it in and import again to get the suite's container block
tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config.json: $.model_params.model_name: not carried over: CVS first runs `python scripts/download_hf_assets.py --repo_id meta-llama/Llama-3.1-8B --local_dir ./assets/hf/llama3 --all` in /workspace/Primus/third_party/torchtitan; run it once in the image (with HF_TOKEN set) before the suite
tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config.json: $.model_params.dataset: not carried over: TorchTitan fetches "c4" itself when it starts; have it in the image or the HF cache
tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config.json: $.config.use_generated_config: not carried over: CVS writes each combination's TOML to scripts_dir/run_config.toml; the suite's command writes the same keys there (without CVS's blank lines) before torchrun
tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config.json: $.enforce_thresholds: not carried over: false (record only): the suite names no thresholds file; judge a run with assay gate --thresholds tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_threshold.json
