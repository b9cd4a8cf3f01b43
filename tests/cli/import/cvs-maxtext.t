# ROCm/cvs dddd914's mi300x llama-3.3-70b single-node JAX/MaxText config,
# unchanged (tests/fixtures/gate/cvs/SOURCE.md), as a command suite: one case
# per enabled sweep keyed by its name (CVS's cell), TAG as CVS's _sanitize
# makes it, the YAML value the sweeps differ in (quantization) as a combo
# value; a command that writes the env script (less HF_TOKEN) and the YAML
# CVS writes under /tmp/<user>/jax, runs the first train_script_paths entry
# the image ships, as CVS's launcher does (output through tee, as CVS, so
# the config's error_patterns watch it as cvs-NAME signatures), its log at
# log_dir/jaxmaxtext/TAG/out-node0/training.log, parser maxtext. No
# thresholds gate (the cells are sweep names): a note says how assay gate
# judges each log; the tokenizer download and CVS's other steps are notes.
args: import cvs --user alice tests/fixtures/gate/cvs/mi300x_jaxmaxtext_llama-3.3-70b_single.json
exit: 0
--- stdout
{
  "kind": "command",
  "name": "mi300x_jaxmaxtext_llama-3.3-70b_single",
  "description": "ROCm/cvs mi300x_jaxmaxtext_llama-3.3-70b_single.json (jaxmaxtext, mi300x) as an assay suite, written by `assay import cvs`.",
  "combos": {
    "NNODES=1,STEPS=30,PRECISION=BF16,BATCH=5,GBS=40,SEQLEN=8192": {
      "TAG": "NNODES_1_STEPS_30_PRECISION_BF16_BATCH_5_GBS_40_SEQLEN_8192",
      "PRECISION": "BF16",
      "QUANTIZATION": "\"\""
    },
    "NNODES=1,STEPS=30,PRECISION=FP8,BATCH=5,GBS=40,SEQLEN=8192": {
      "TAG": "NNODES_1_STEPS_30_PRECISION_FP8_BATCH_5_GBS_40_SEQLEN_8192",
      "PRECISION": "FP8",
      "QUANTIZATION": "nanoo_fp8"
    }
  },
  "runs": ["NNODES=1,STEPS=30,PRECISION=BF16,BATCH=5,GBS=40,SEQLEN=8192", "NNODES=1,STEPS=30,PRECISION=FP8,BATCH=5,GBS=40,SEQLEN=8192"],
  "container": {
    "runtime": "docker",
    "image": "rocm/jax-training:maxtext-v26.4",
    "devices": "amd",
    "mounts": ["/home/alice:/home/alice", "/tmp/alice/jax/TRAINING_LOGS:/workspace/maxtext/output"],
    "options": ["--privileged"]
  },
  "argv": ["sh", "-c", "u=$(id -un 2>/dev/null); d=/tmp/${{u:-cvs}}/jax; o='/home/alice/LOGS/jaxmaxtext/jaxmaxtext/{TAG}'; mkdir -p \"$d\" \"$o/out-node0\" && printf '%s\\n' 'export HF_HOME=/home/alice/cache/maxtext' 'export LD_LIBRARY_PATH=/opt/rocm/lib:$LD_LIBRARY_PATH' 'export NNODES=auto' 'export NODE_RANK=0' 'export GPU_MAX_HW_QUEUES=2' 'export HSA_FORCE_FINE_GRAIN_PCIE=1' 'export HIP_FORCE_DEV_KERNARG=1' 'export HSA_NO_SCRATCH_RECLAIM=1' 'export XLA_PYTHON_CLIENT_MEM_FRACTION=0.97' 'export NCCL_DEBUG=VERSION' 'export NCCL_IB_DISABLE=1' 'export NVTE_ALLOW_NONDETERMINISTIC_ALGO=1' 'export NVTE_USE_HIPBLASLT=1' 'export NVTE_FUSED_ATTN=1' 'export NVTE_CK_USES_BWD_V3=1' 'export NVTE_CK_USES_FWD_V3=1' 'export NVTE_CK_IS_V3_ATOMIC_FP32=0' 'export NVTE_CK_HOW_V3_BF16_CVT=2' 'export NVTE_FUSED_ATTN_CK=1' 'export NVTE_FUSED_ATTN_AOTRITON=0' 'export XLA_FLAGS=\"--xla_gpu_memory_limit_slop_factor=95 --xla_gpu_reduce_scatter_combine_threshold_bytes=8589934592 --xla_gpu_enable_command_buffer= --xla_gpu_enable_latency_hiding_scheduler=True --xla_gpu_all_gather_combine_threshold_bytes=8589934592 --xla_gpu_enable_triton_gemm=False --xla_gpu_enable_cublaslt=True --xla_gpu_autotune_level=0 --xla_gpu_enable_all_gather_combine_by_dim=FALSE\"' 'export NCCL_IB_DISABLE=1' 'export NCCL_SHM_DISABLE=0' 'export NCCL_P2P_DISABLE=0' > \"$d/maxtext_env.sh\" && printf '%s\\n' 'base_config: base.yml' 'model_name: llama3.3-70b' 'hardware: gpu' 'attention: cudnn_flash_te' 'dtype: bfloat16' 'dataset_type: synthetic' 'remat_policy: full' 'use_iota_embed: true' 'scan_layers: true' 'per_device_batch_size: 5' 'max_target_length: 8192' 'async_checkpointing: false' 'quantization: {QUANTIZATION}' 'weight_dtype: bfloat16' 'shardy: true' 'logits_dot_in_fp32: false' 'megablox: false' 'packing: true' 'enable_goodput_recording: false' 'monitor_goodput: false' 'optimizer_memory_host_offload: false' 'param_scan_axis: 1' 'ici_fsdp_parallelism: 8' 'ici_data_parallelism: 1' 'ici_sequence_parallelism: 1' 'ici_tensor_parallelism: 1' 'ici_pipeline_parallelism: 1' 'profiler: \"\"' 'quantize_kvcache: false' 'kv_quant_axis: heads_and_dkv' 'kv_quant_dtype: int8' 'checkpoint_is_quantized: false' 'max_segments_per_seq: 32' 'run_name: jaxmaxtext_llama3.3-70b_{TAG}' 'steps: 30' 'enable_checkpointing: false' 'base_output_directory: /home/alice/LOGS/jaxmaxtext/jaxmaxtext/{TAG}' 'tokenizer_path: /home/alice/cache/maxtext/Meta-Llama-70-B' > \"$d/maxtext_config.yml\" && t= && for s in /workspace/maxtext/src/maxtext/trainers/pre_train/train.py /workspace/maxtext/src/MaxText/train.py; do if [ -f \"$s\" ]; then t=$s; break; fi; done && if [ -z \"$t\" ]; then echo 'none of train_script_paths is in the image: /workspace/maxtext/src/maxtext/trainers/pre_train/train.py /workspace/maxtext/src/MaxText/train.py' >&2; exit 2; fi && . \"$d/maxtext_env.sh\" && export JAX_COORDINATOR_IP=localhost JAX_COORDINATOR_PORT=12346 NNODES=1 NODE_RANK=0 JAX_PROCESS_INDEX=0 && export PYTHONPATH=$PYTHONPATH:/workspace/maxtext/ && cd /workspace/maxtext && (python \"$t\" \"$d/maxtext_config.yml\" 2>&1; echo $? > \"$d/exit\") | tee \"$o/out-node0/training.log\"; exit \"$(cat \"$d/exit\")\""],
  "secrets": ["HF_TOKEN"],
  "parser": "maxtext",
  "results": ["/home/alice/LOGS/jaxmaxtext/jaxmaxtext/{TAG}/out-node0/training.log"],
  "nodes": 1,
  "gpus_per_node": 8,
  "training": {
    "final_step": 29
  },
  "signatures": {
    "errors": {
      "cvs-NCCL ERROR": "NCCL ERROR|NCCL timeout|local work queue catastrophic error",
      "cvs-GPU HW ERROR": "HW Exception by GPU|GPU Hang|Uncorrectable error|GPU Reset",
      "cvs-AssertionError": "AssertionError|ValueError:|JaxStackTrace|During handling of the above exception|triggered the following exception",
      "cvs-rocm Err": "FAILED_PRECONDITION: No visible GPU devices|failed call to hipInit: HIP_ERROR_NoDevice|librocm reported version is: NOT_FOUND",
      "cvs-python err": "ModuleNotFoundError: No module named|Fatal Python error:",
      "cvs-tensorflow": "tensorflow.CoordinationServiceError|tensorflow.BarrierError|CoordinationServiceError",
      "cvs-resource": "RESOURCE_EXHAUSTED: Out of memory|failed: RESOURCE_EXHAUSTED",
      "cvs-segfault": "Segmentation fault|SIGSEGV|core dumped|std::bad_alloc"
    }
  }
}
--- stderr
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_llama-3.3-70b_single.json: $.paths.hf_token_file: not carried over: assay reads no token files: set HF_TOKEN in assay's environment (the suite names it in $.secrets); the env script the command writes leaves out CVS's `export HF_TOKEN=` line
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_llama-3.3-70b_single.json: $.training.tokenizer: not carried over: CVS first downloads the tokenizer (`huggingface-cli download NousResearch/Meta-Llama-3-70B --local-dir /home/alice/cache/maxtext/Meta-Llama-70-B`, HF_HOME=/home/alice/cache/maxtext, with HF_TOKEN); run it once before the suite
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_llama-3.3-70b_single.json: $.container.runtime.args.shm-size: not carried over: no counterpart in the container block; add it to $.container.options if it matters
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_llama-3.3-70b_single.json: $.container.runtime.args.ulimit: not carried over: no counterpart in the container block; add it to $.container.options if it matters
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_llama-3.3-70b_single.json: $.container: not carried over: name and lifetime: assay runs one container per case, named after the run and the case
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_llama-3.3-70b_single.json: $.training.steps: not carried over: CVS first runs a smoke training of a few steps; the suite runs the sweeps only
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_llama-3.3-70b_single.json: $.training.verify_dmesg: not carried over: CVS scans each host's dmesg for GPU and kernel faults over the run; the suite does not
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_llama-3.3-70b_single.json: $.training.nic_type: not carried over: CVS uses it for distributed runs only
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_llama-3.3-70b_single.json: $.training.loss_curve: not carried over: CVS's loss-curve and convergence checks are assay gate's (--spec, docs/gate.md); the suite records the losses
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_llama-3.3-70b_single.json: $.container.runtime.args.volumes: not carried over: CVS creates the host folders of its /tmp bind mounts before it starts the container; create them first
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_llama-3.3-70b_single.json: $.training.error_patterns: not carried over: watched as the suite's signatures, named cvs-NAME (case-sensitive; CVS matches them ignoring case), besides assay's built-ins
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_llama-3.3-70b_single.json: $.threshold_json: not carried over: the suite's cells are CVS's sweep names, which assay run does not gate: judge each case's log with assay gate --thresholds tests/fixtures/gate/cvs/mi300x_jaxmaxtext_llama-3.3-70b_single_threshold.json --combo COMBO --error-patterns tests/fixtures/gate/cvs/mi300x_jaxmaxtext_llama-3.3-70b_single.json LOG (docs/gate.md)
