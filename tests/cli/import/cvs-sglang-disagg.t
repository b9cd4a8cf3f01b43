# ROCm/cvs dddd914's SGLang disaggregated config with its placeholders
# filled in (tests/fixtures/inference/cvs/SOURCE.md), on a CVS cluster file
# of four nodes: role servers (docs/inference.md, "Role servers") in CVS's
# order, each as cvs/lib/inference/sglang/sglang_disagg_lib.py writes it:
# prefill (launch_prefill_servers: --disaggregation-mode prefill,
# --disaggregation-ib-device nccl_ib_hca, port prefill_serv_port,
# --dist-init-addr prefill_coordinator_addr:prefill_coordinator_port, its
# env script's MASTER_PREFILL_ADDR and _PORT) on hosts 0-1, decode
# (launch_decode_servers, --trust-remote-code before --dtype) on hosts 2-3,
# each rank's --node-rank from the launcher's NODE_RANK; the router
# (launch_proxy_router: --pd-disaggregation, --prefill and --decode at the
# coordinator addresses and serving ports, port proxy_router_serv_port) on
# the host proxy_router_node names (gpu01, index 0); /health asked on each
# role's first host; the client on the first host against the router at
# 127.0.0.1 (CVS's resolve_client_host when the router and the benchmark
# node are one); one case per cell; every key the suite does not carry
# named on stderr
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster-4.json tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json
exit: 0
--- stdout
{
  "kind": "inference",
  "name": "mi30x_sglang_llama_70b_disaggregated_filled",
  "description": "ROCm/cvs mi30x_sglang_llama_70b_disaggregated_filled.json (sglang_disagg_distributed, llama-70b) as an assay suite, written by `assay import cvs`: assay starts sglang.launch_server's prefill and decode servers and sglang_router on their nodes, waits for each /health and runs sglang.bench_serving against the router once per threshold cell.",
  "servers": [
    {
      "role": "prefill",
      "argv": ["bash", "-c", "exec \"$@\" --node-rank \"$NODE_RANK\"", "sglang-node", "env", "NCCL_DEBUG=ERROR", "HSA_FORCE_FINE_GRAIN_PCIE=1", "MODEL=meta-llama/Llama-3.1-70B-Instruct", "TP=8", "PP=2", "NCCL_IB_HCA=rdma0,rdma1,rdma2,rdma3,rdma4,rdma5,rdma6,rdma7", "NCCL_IB_GID_INDEX=3", "NCCL_SOCKET_IFNAME=eno0", "GLOO_SOCKET_IFNAME=eno0", "GLOO_TCP_IFNAME=eno0", "SGLANG_USE_AITER=1", "AMDGCN_USE_BUFFER_OPS=1", "ROCM_QUICK_REDUCE_QUANTIZATION=INT8", "MASTER_PREFILL_ADDR=gpu01", "MASTER_PREFILL_PORT=40001", "python3", "-m", "sglang.launch_server", "--model", "meta-llama/Llama-3.1-70B-Instruct", "--disaggregation-mode", "prefill", "--disaggregation-ib-device", "rdma0,rdma1,rdma2,rdma3,rdma4,rdma5,rdma6,rdma7", "--host", "0.0.0.0", "--port", "30001", "--dtype", "auto", "--kv-cache-dtype", "auto", "--trust-remote-code", "--tp-size", "8", "--pp-size", "2", "--nnodes", "2", "--dist-init-addr", "gpu01:40001", "--disable-radix-cache", "--disable-cuda-graph", "--mem-fraction-static", "0.85", "--attention-backend", "aiter", "--log-level", "info"],
      "health": "http://gpu01:30001/health",
      "health_timeout_s": 1920,
      "nodes": 2,
      "first_host": 0
    },
    {
      "role": "decode",
      "argv": ["bash", "-c", "exec \"$@\" --node-rank \"$NODE_RANK\"", "sglang-node", "env", "NCCL_DEBUG=ERROR", "HSA_FORCE_FINE_GRAIN_PCIE=1", "MODEL=meta-llama/Llama-3.1-70B-Instruct", "TP=8", "PP=2", "NCCL_IB_HCA=rdma0,rdma1,rdma2,rdma3,rdma4,rdma5,rdma6,rdma7", "NCCL_IB_GID_INDEX=3", "NCCL_SOCKET_IFNAME=eno0", "GLOO_SOCKET_IFNAME=eno0", "GLOO_TCP_IFNAME=eno0", "SGLANG_USE_AITER=1", "AMDGCN_USE_BUFFER_OPS=1", "ROCM_QUICK_REDUCE_QUANTIZATION=INT8", "MASTER_DECODE_ADDR=gpu03", "MASTER_DECODE_PORT=40002", "python3", "-m", "sglang.launch_server", "--model", "meta-llama/Llama-3.1-70B-Instruct", "--disaggregation-mode", "decode", "--disaggregation-ib-device", "rdma0,rdma1,rdma2,rdma3,rdma4,rdma5,rdma6,rdma7", "--host", "0.0.0.0", "--port", "30002", "--trust-remote-code", "--dtype", "auto", "--kv-cache-dtype", "auto", "--tp-size", "8", "--pp-size", "2", "--nnodes", "2", "--dist-init-addr", "gpu03:40002", "--disable-radix-cache", "--disable-cuda-graph", "--mem-fraction-static", "0.85", "--attention-backend", "aiter", "--log-level", "info"],
      "health": "http://gpu03:30002/health",
      "health_timeout_s": 1920,
      "nodes": 2,
      "first_host": 2
    },
    {
      "role": "router",
      "argv": ["python3", "-m", "sglang_router.launch_router", "--pd-disaggregation", "--prefill", "http://gpu01:30001", "--decode", "http://gpu03:30002", "--host", "0.0.0.0", "--port", "8000"],
      "health": "http://gpu01:8000/health",
      "health_timeout_s": 120,
      "nodes": 1,
      "first_host": 0
    }
  ],
  "combos": {
    "isl1024-osl1024-c4": {
      "ISL": 1024,
      "OSL": 1024,
      "TP": 8,
      "PP": 1,
      "CONC": 4
    },
    "isl1024-osl1024-c8": {
      "ISL": 1024,
      "OSL": 1024,
      "TP": 8,
      "PP": 1,
      "CONC": 8
    },
    "isl1024-osl1024-c16": {
      "ISL": 1024,
      "OSL": 1024,
      "TP": 8,
      "PP": 1,
      "CONC": 16
    },
    "isl1024-osl1024-c32": {
      "ISL": 1024,
      "OSL": 1024,
      "TP": 8,
      "PP": 1,
      "CONC": 32
    },
    "isl1024-osl1024-c64": {
      "ISL": 1024,
      "OSL": 1024,
      "TP": 8,
      "PP": 1,
      "CONC": 64
    },
    "isl1024-osl1024-c128": {
      "ISL": 1024,
      "OSL": 1024,
      "TP": 8,
      "PP": 1,
      "CONC": 128
    },
    "isl1024-osl1024-c256": {
      "ISL": 1024,
      "OSL": 1024,
      "TP": 8,
      "PP": 1,
      "CONC": 256
    },
    "isl8192-osl1024-c64": {
      "ISL": 8192,
      "OSL": 1024,
      "TP": 8,
      "PP": 1,
      "CONC": 64
    }
  },
  "runs": ["isl1024-osl1024-c4", "isl1024-osl1024-c8", "isl1024-osl1024-c16", "isl1024-osl1024-c32", "isl1024-osl1024-c64", "isl1024-osl1024-c128", "isl1024-osl1024-c256", "isl8192-osl1024-c64"],
  "container": {
    "runtime": "docker",
    "image": "rocm/sgl-dev:v0.5.12.post1-rocm720-mi30x-20260603",
    "devices": "amd",
    "mounts": ["/home/alice:/home/alice", "/mnt/dtni/models:/root/models", "/dev/infiniband:/dev/infiniband", "/usr/local/lib/libbnxt_re-rdmav34.so:/usr/lib/x86_64-linux-gnu/libibverbs/libbnxt_re-rdmav34.so.host", "/lib/libibverbs.d:/lib/libibverbs.d"],
    "options": ["--shm-size=128G", "--device=/dev/infiniband/rdma_cm"]
  },
  "argv": ["python3", "-m", "sglang.bench_serving", "--backend", "sglang", "--dataset-name", "random", "--num-prompts", "100", "--max-concurrency", "{CONC}", "--random-input", "{ISL}", "--random-output", "{OSL}", "--random-range-ratio", "0.5", "--host", "127.0.0.1", "--port", "8000"],
  "env": {
    "NCCL_DEBUG": "ERROR",
    "HSA_FORCE_FINE_GRAIN_PCIE": "1",
    "MODEL": "meta-llama/Llama-3.1-70B-Instruct",
    "TP": "8",
    "PP": "2",
    "NCCL_IB_HCA": "rdma0,rdma1,rdma2,rdma3,rdma4,rdma5,rdma6,rdma7",
    "NCCL_IB_GID_INDEX": "3",
    "NCCL_SOCKET_IFNAME": "eno0",
    "GLOO_SOCKET_IFNAME": "eno0",
    "GLOO_TCP_IFNAME": "eno0",
    "SGLANG_USE_AITER": "1",
    "AMDGCN_USE_BUFFER_OPS": "1",
    "ROCM_QUICK_REDUCE_QUANTIZATION": "INT8"
  },
  "secrets": ["HF_TOKEN"],
  "parser": "sglang",
  "context": {
    "model": "meta-llama/Llama-3.1-70B-Instruct",
    "tp": 8,
    "pp": 2,
    "isl": "{ISL}",
    "osl": "{OSL}",
    "concurrency": "{CONC}",
    "num_prompts": 100,
    "model_num_params": 70000000000,
    "peak_gpu_tflops": 2615
  },
  "gpus_per_node": 8,
  "gates": {
    "thresholds": "tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_threshold.json"
  },
  "launcher": {
    "type": "ssh",
    "cluster_file": "tests/fixtures/cli/import/cluster-4.json"
  }
}
--- stderr
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.benchmark_params.llama-70b.threshold_file: not carried over: cvs/input/config_file/inference/sglang/mi30x_sglang_llama_70b_threshold.json is not there (CVS reads it from its working directory): the suite names tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_threshold.json, next to the config
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.benchmark_params.llama-70b.threshold_file: not carried over: tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_threshold.json: cell "ACC_ISL=131072,OSL=1024" is not a benchmark cell (CVS runs lm-eval and long-context accuracy for those; assay does not)
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.benchmark_params.llama-70b.threshold_file: not carried over: tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_threshold.json: cell "ACC_ISL=261120,OSL=1024" is not a benchmark cell (CVS runs lm-eval and long-context accuracy for those; assay does not)
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.benchmark_params.llama-70b.threshold_file: not carried over: tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_threshold.json: cell "BENCH=lm_eval_hellaswag" is not a benchmark cell (CVS runs lm-eval and long-context accuracy for those; assay does not)
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.benchmark_params.llama-70b.threshold_file: not carried over: tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_threshold.json: cell "BENCH=lm_eval_gsm8k" is not a benchmark cell (CVS runs lm-eval and long-context accuracy for those; assay does not)
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.benchmark_params.llama-70b.threshold_file: not carried over: a cell's PP differs from pipeline_parallelism (2), which the server runs with: each cell is gated with its own thresholds, as CVS's benchmark test does, and its rows carry pp 2
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.config.container_name: not carried over: assay runs one container per case, named after the run and the case
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.config.hf_token_file: not carried over: assay reads no token files: set HF_TOKEN in assay's environment (the suite names it in $.secrets)
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.config.log_dir: not carried over: the run folder holds server-prefill/, server-decode/ and server-router/server.log and each case's client output (CVS's benchmark_node/benchmark_results.log is the case's stdout)
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.config.prefill_node_list: not carried over: the prefill server runs on the first 2 host(s) of tests/fixtures/cli/import/cluster-4.json, in its order (rank 0 on gpu01), as the ssh launcher takes them; prefill_coordinator_addr must be that host's address
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.config.decode_node_list: not carried over: the decode server runs on the next 2 host(s) of tests/fixtures/cli/import/cluster-4.json (rank 0 on gpu03); decode_coordinator_addr must be that host's address
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.config.benchmark_serv_node: not carried over: the client runs on gpu01 (the ssh launcher's first host), against the router at 127.0.0.1:8000
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.config.proxy_router_port: not carried over: CVS's router listens on proxy_router_serv_port; it passes this to no command
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.config.nic_type: not carried over: CVS's NIC setup scripts and ibv device checks read it; assay runs neither
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.config.nccl_ib_hca_list: not carried over: CVS's NIC setup scripts and ibv device checks read it; assay runs neither
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.config.hca_id_prefix: not carried over: CVS's NIC setup scripts and ibv device checks read it; assay runs neither
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.config.mount_vol: not carried over: CVS's NIC setup scripts and ibv device checks read it; assay runs neither
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.config.container_image: not carried over: the prefill, decode and router processes run on their nodes, outside the container (the client runs in it on gpu01): sglang.launch_server and sglang_router must be installed on every node; CVS's env scripts also set LD_LIBRARY_PATH for Mooncake and HF_TOKEN, and the router's only the NCCL and gloo variables (here: none)
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.config.nnodes: not carried over: CVS's disaggregated test does not read it (the node lists give each role's nodes); CVS starts each server with --host set to its node's name, here --host 0.0.0.0
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.benchmark_params.llama-70b: not carried over: CVS divides output throughput per GPU and MFU by (prefill + decode nodes) x TP x PP GPUs (64); the sglang parser divides by the context's tp (8)
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.benchmark_params.llama-70b: not carried over: CVS also runs an RMSNorm kernel test, probes the OpenAI endpoints and checks dmesg around the benchmark; readiness is SGLang's /health, not CVS's grep of the server log
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.benchmark_params.llama-70b.inference_tests.bench_serv_generated_shared_prefix: not carried over: CVS runs this test too; assay does not
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.benchmark_params.llama-70b.inference_tests.long_ctx_niah: not carried over: CVS runs this test too; assay does not
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.benchmark_params.llama-70b.inference_tests.lm_eval_hellaswag: not carried over: CVS runs this test too; assay does not
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.benchmark_params.llama-70b.inference_tests.lm_eval_gsm8k: not carried over: CVS runs this test too; assay does not
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.benchmark_params.llama-70b.max_concurrency: not carried over: each cell's CONC replaces it, as in CVS's benchmark test
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.benchmark_params.llama-70b.tokenizer_mode: not carried over: CVS passes it to no command
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.benchmark_params.llama-70b.inference_poll_iterations: not carried over: CVS's readiness wait does not read it (120 s, then 15 polls 120 s apart): the suite waits 1920 s for /health
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.benchmark_params.llama-70b.prefill_policy: not carried over: not a key CVS's SGLang loader reads
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.benchmark_params.llama-70b.decode_policy: not carried over: not a key CVS's SGLang loader reads
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json: $.benchmark_params.llama-70b.context_length: not carried over: not a key CVS's SGLang loader reads
