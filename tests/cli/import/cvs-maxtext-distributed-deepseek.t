# ROCm/cvs dddd914's mi300x deepseek-v2-lite distributed JAX/MaxText config
# with its training.nccl "<changeme>" values filled in from the sibling
# _example_* entries (tests/fixtures/gate/cvs/SOURCE.md), on a four-node CVS
# cluster file: one sweep, NNODES=4 (the file's nodes, as CVS counts
# orch.hosts), the coordinator the file's first node, results node 0's log.
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster-4.json tests/fixtures/gate/cvs/mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled.json
exit: 0
--- stdout
{
  "kind": "command",
  "name": "mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled",
  "description": "ROCm/cvs mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled.json (jaxmaxtext, mi300x) as an assay suite, written by `assay import cvs`.",
  "combos": {
    "NNODES=2,STEPS=30,PRECISION=BF16,BATCH=4,GBS=640,SEQLEN=4096": {
      "TAG": "NNODES_2_STEPS_30_PRECISION_BF16_BATCH_4_GBS_640_SEQLEN_4096",
      "PRECISION": "BF16"
    }
  },
  "runs": ["NNODES=2,STEPS=30,PRECISION=BF16,BATCH=4,GBS=640,SEQLEN=4096"],
  "container": {
    "runtime": "docker",
    "image": "rocm/jax-training:maxtext-v26.4",
    "devices": "amd",
    "mounts": ["/home/alice:/home/alice", "/dev/infiniband:/dev/infiniband", "/usr/local/lib/libbnxt_re-rdmav34.so:/usr/lib/x86_64-linux-gnu/libibverbs/libbnxt_re-rdmav34.so.host", "/lib/libibverbs.d:/lib/libibverbs.d", "/tmp/alice/jax/TRAINING_LOGS:/workspace/maxtext/output"],
    "options": ["--privileged"]
  },
  "argv": ["sh", "-c", "r=$NODE_RANK; u=$(id -un 2>/dev/null); d=/tmp/${{u:-cvs}}/jax; o='/home/alice/LOGS/jaxmaxtext/jaxmaxtext/{TAG}'; mkdir -p \"$d\" \"$o/out-node$r\" && printf '%s\\n' 'export HF_HOME=/home/alice/cache/maxtext' 'export LD_LIBRARY_PATH=/opt/rocm/lib:$LD_LIBRARY_PATH' 'export NNODES=auto' 'export GPU_MAX_HW_QUEUES=2' 'export HSA_FORCE_FINE_GRAIN_PCIE=1' 'export HIP_FORCE_DEV_KERNARG=1' 'export HSA_NO_SCRATCH_RECLAIM=1' 'export XLA_PYTHON_CLIENT_MEM_FRACTION=0.97' 'export NCCL_DEBUG=VERSION' 'export NCCL_IB_DISABLE=1' 'export NCCL_PROTO=Simple' 'export NCCL_IB_TC=41' 'export NCCL_IB_SL=0' 'export NCCL_IB_GID_INDEX=3' 'export NCCL_CHECKS_DISABLE=1' 'export NCCL_CROSS_NIC=0' 'export NVTE_ALLOW_NONDETERMINISTIC_ALGO=1' 'export NVTE_USE_HIPBLASLT=1' 'export NVTE_FUSED_ATTN=1' 'export NVTE_CK_USES_BWD_V3=1' 'export NVTE_CK_USES_FWD_V3=1' 'export NVTE_CK_IS_V3_ATOMIC_FP32=0' 'export NVTE_CK_HOW_V3_BF16_CVT=2' 'export NVTE_FUSED_ATTN_CK=1' 'export NVTE_FUSED_ATTN_AOTRITON=0' 'export XLA_FLAGS=\"--xla_gpu_memory_limit_slop_factor=95 --xla_gpu_reduce_scatter_combine_threshold_bytes=8589934592 --xla_gpu_enable_command_buffer= --xla_gpu_enable_latency_hiding_scheduler=True --xla_gpu_all_gather_combine_threshold_bytes=8589934592 --xla_gpu_enable_triton_gemm=False --xla_gpu_enable_cublaslt=True --xla_gpu_autotune_level=0 --xla_gpu_enable_all_gather_combine_by_dim=FALSE\"' 'export NCCL_IB_HCA=rdma0,rdma1,rdma2,rdma3,rdma4,rdma5,rdma6,rdma7' 'export NCCL_IB_HCA_LIST=rdma0,rdma1,rdma2,rdma3,rdma4,rdma5,rdma6,rdma7' 'export NCCL_SOCKET_IFNAME=eno0' 'export GLOO_SOCKET_IFNAME=eno0' > \"$d/maxtext_env.sh\" && printf '%s\\n' 'base_config: base.yml' 'model_name: deepseek2-16b' 'hardware: gpu' 'attention: cudnn_flash_te' 'packing: true' 'log_period: 100' 'dcn_data_parallelism: -1' 'dcn_fsdp_parallelism: 1' 'ici_fsdp_parallelism: 1' 'ici_data_parallelism: 1' 'ici_expert_parallelism: -1' 'remat_policy: minimal_flash' 'use_iota_embed: true' 'scan_layers: true' 'async_checkpointing: false' 'logits_dot_in_fp32: false' 'profiler: \"\"' 'dtype: bfloat16' 'quantization: \"\"' 'quantize_kvcache: false' 'kv_quant_axis: heads_and_dkv' 'kv_quant_dtype: int8' 'weight_dtype: bfloat16' 'checkpoint_is_quantized: false' 'max_target_length: 4096' 'dataset_type: synthetic' 'per_device_batch_size: 4' 'megablox: false' 'capacity_factor: 1.25' 'sparse_matmul: false' 'sharding_tolerance: 0.05' 'max_segments_per_seq: 32' 'shardy: true' 'enable_goodput_recording: false' 'monitor_goodput: false' 'run_name: jaxmaxtext_deepseek-v2-lite_{TAG}' 'steps: 30' 'enable_checkpointing: false' 'base_output_directory: /home/alice/LOGS/jaxmaxtext/jaxmaxtext/{TAG}' 'tokenizer_path: /home/alice/cache/maxtext/DeepSeek-V2-Lite' > \"$d/maxtext_config.yml\" && t= && for s in /workspace/maxtext/src/maxtext/trainers/pre_train/train.py /workspace/maxtext/src/MaxText/train.py; do if [ -f \"$s\" ]; then t=$s; break; fi; done && if [ -z \"$t\" ]; then echo 'none of train_script_paths is in the image: /workspace/maxtext/src/maxtext/trainers/pre_train/train.py /workspace/maxtext/src/MaxText/train.py' >&2; exit 2; fi && . \"$d/maxtext_env.sh\" && export JAX_COORDINATOR_IP=gpu01 JAX_COORDINATOR_PORT=12346 NNODES=4 NODE_RANK=\"$r\" JAX_PROCESS_INDEX=\"$r\" JAX_DISTRIBUTED_INITIALIZATION_TIMEOUT_SECONDS=1800 JAX_DISTRIBUTED_HEARTBEAT_TIMEOUT_SECONDS=900 && export PYTHONPATH=$PYTHONPATH:/workspace/maxtext/ && cd /workspace/maxtext && (python \"$t\" \"$d/maxtext_config.yml\" 2>&1; echo $? > \"$d/exit\") | tee \"$o/out-node$r/training.log\"; exit \"$(cat \"$d/exit\")\""],
  "secrets": ["HF_TOKEN"],
  "parser": "maxtext",
  "results": ["/home/alice/LOGS/jaxmaxtext/jaxmaxtext/{TAG}/out-node0/training.log"],
  "nodes": 4,
  "gpus_per_node": 8,
  "training": {
    "final_step": 29
  },
  "launcher": {
    "type": "ssh",
    "cluster_file": "tests/fixtures/cli/import/cluster-4.json"
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
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled.json: $.paths.hf_token_file: not carried over: assay reads no token files: set HF_TOKEN in assay's environment (the suite names it in $.secrets); the env script the command writes leaves out CVS's `export HF_TOKEN=` line
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled.json: $.training.jax_distributed.coordinator_ip: not carried over: "auto": the first node of tests/fixtures/cli/import/cluster-4.json, gpu01, as CVS takes it
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled.json: $.training.tokenizer: not carried over: CVS first downloads the tokenizer (`huggingface-cli download deepseek-ai/DeepSeek-V2-Lite --local-dir /home/alice/cache/maxtext/DeepSeek-V2-Lite`, HF_HOME=/home/alice/cache/maxtext, with HF_TOKEN); run it once before the suite
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled.json: $.container.runtime.args.shm-size: not carried over: no counterpart in the container block; add it to $.container.options if it matters
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled.json: $.container.runtime.args.ulimit: not carried over: no counterpart in the container block; add it to $.container.options if it matters
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled.json: $.container: not carried over: name and lifetime: assay runs one container per case, named after the run and the case
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled.json: $.training.steps: not carried over: CVS first runs a smoke training of a few steps; the suite runs the sweeps only
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled.json: $.training.verify_dmesg: not carried over: CVS scans each host's dmesg for GPU and kernel faults over the run; the suite does not
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled.json: $.training.rdma_lib: not carried over: CVS first copies the RDMA library into the container on every node (`sudo cp /usr/lib/x86_64-linux-gnu/libibverbs/libbnxt_re-rdmav34.so.host /usr/lib/x86_64-linux-gnu/libibverbs/libbnxt_re-rdmav34.so`, nic_type thor2) and checks that `ibv_devinfo` lists a bnxt_, rocep or rdma device; do that in the image before the suite
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled.json: $.training.nccl: not carried over: CVS exports ib_hca, ib_hca_list, socket_ifname and gloo_socket_ifname (the env script has them) and reads none of ib_tc, ib_sl, ib_gid_index
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled.json: $.training.scaling_baseline: not carried over: CVS's scaling efficiency against tokens_per_sec_total is not computed
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled.json: $.paths.log_dir: not carried over: every node writes its out-node{i}/training.log; assay reads node 0's (the coordinator's, which CVS parses) where it runs: keep log_dir on a file system the nodes share, as CVS's shipped paths under /home are
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled.json: $.training.loss_curve: not carried over: CVS's loss-curve and convergence checks are assay gate's (--spec, docs/gate.md); the suite records the losses
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled.json: $.container.runtime.args.volumes: not carried over: CVS creates the host folders of its /tmp bind mounts before it starts the container; create them first
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled.json: $.training.error_patterns: not carried over: watched as the suite's signatures, named cvs-NAME (case-sensitive; CVS matches them ignoring case), besides assay's built-ins
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled.json: $.threshold_json: not carried over: the suite's cells are CVS's sweep names, which assay run does not gate: judge each case's log with assay gate --thresholds tests/fixtures/gate/cvs/mi300x_jaxmaxtext_deepseek-v2-lite_distributed_threshold.json --combo COMBO --error-patterns tests/fixtures/gate/cvs/mi300x_jaxmaxtext_deepseek-v2-lite_distributed_filled.json LOG (docs/gate.md)
