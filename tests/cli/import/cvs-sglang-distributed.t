# ROCm/cvs dddd914's SGLang distributed config with its NCCL interface
# settings filled in (tests/fixtures/inference/cvs/SOURCE.md), on a CVS
# cluster file of two nodes: the server on both nodes (server.nodes 2, the
# ssh launcher on the cluster file), each rank's sglang.launch_server as
# CVS's sglang_distributed_lib.py writes it (launch_server: --pp-size,
# --nnodes, --node-rank, --dist-init-addr at rank 0's address on
# dist_init_port; its env script's variables with PP, and GLOO_TCP_IFNAME
# from gloo_socket_ifname), the node rank and the head's address from the
# launcher's NODE_RANK and MASTER_ADDR; /health asked on the cluster file's
# first node; the client on that node against 127.0.0.1; one case per cell;
# every key the suite does not carry named on stderr
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster.json tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json
exit: 0
--- stdout
{
  "kind": "inference",
  "name": "mi30x_sglang_llama_70b_distributed_filled",
  "description": "ROCm/cvs mi30x_sglang_llama_70b_distributed_filled.json (sglang_distributed, llama-70b) as an assay suite, written by `assay import cvs`: assay starts sglang.launch_server on every node, waits for /health and runs sglang.bench_serving against it once per threshold cell.",
  "server": {
    "argv": ["bash", "-c", "exec \"$@\" --node-rank \"$NODE_RANK\" --dist-init-addr \"$MASTER_ADDR:40001\"", "sglang-node", "env", "NCCL_DEBUG=ERROR", "HSA_FORCE_FINE_GRAIN_PCIE=1", "MODEL=meta-llama/Llama-3.1-70B-Instruct", "TP=8", "PP=2", "NCCL_IB_HCA=rdma0,rdma1,rdma2,rdma3,rdma4,rdma5,rdma6,rdma7", "NCCL_IB_GID_INDEX=3", "NCCL_SOCKET_IFNAME=eno0", "GLOO_SOCKET_IFNAME=eno0", "GLOO_TCP_IFNAME=eno0", "SGLANG_USE_AITER=1", "AMDGCN_USE_BUFFER_OPS=1", "ROCM_QUICK_REDUCE_QUANTIZATION=INT8", "python3", "-m", "sglang.launch_server", "--model", "meta-llama/Llama-3.1-70B-Instruct", "--host", "0.0.0.0", "--port", "8000", "--dtype", "auto", "--kv-cache-dtype", "auto", "--trust-remote-code", "--tp-size", "8", "--pp-size", "2", "--nnodes", "2", "--disable-radix-cache", "--disable-cuda-graph", "--mem-fraction-static", "0.85", "--attention-backend", "aiter", "--log-level", "info"],
    "health": "http://gpu01:8000/health",
    "health_timeout_s": 1920,
    "nodes": 2
  },
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
    "cluster_file": "tests/fixtures/cli/import/cluster.json"
  }
}
--- stderr
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.benchmark_params.llama-70b.threshold_file: not carried over: cvs/input/config_file/inference/sglang/mi30x_sglang_llama_70b_threshold.json is not there (CVS reads it from its working directory): the suite names tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_threshold.json, next to the config
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.benchmark_params.llama-70b.threshold_file: not carried over: tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_threshold.json: cell "ACC_ISL=131072,OSL=1024" is not a benchmark cell (CVS runs lm-eval and long-context accuracy for those; assay does not)
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.benchmark_params.llama-70b.threshold_file: not carried over: tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_threshold.json: cell "ACC_ISL=261120,OSL=1024" is not a benchmark cell (CVS runs lm-eval and long-context accuracy for those; assay does not)
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.benchmark_params.llama-70b.threshold_file: not carried over: tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_threshold.json: cell "BENCH=lm_eval_hellaswag" is not a benchmark cell (CVS runs lm-eval and long-context accuracy for those; assay does not)
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.benchmark_params.llama-70b.threshold_file: not carried over: tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_threshold.json: cell "BENCH=lm_eval_gsm8k" is not a benchmark cell (CVS runs lm-eval and long-context accuracy for those; assay does not)
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.benchmark_params.llama-70b.threshold_file: not carried over: a cell's PP differs from pipeline_parallelism (2), which the server runs with: each cell is gated with its own thresholds, as CVS's benchmark test does, and its rows carry pp 2
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.config.container_name: not carried over: assay runs one container per case, named after the run and the case
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.config.hf_token_file: not carried over: assay reads no token files: set HF_TOKEN in assay's environment (the suite names it in $.secrets)
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.config.log_dir: not carried over: the run folder holds server/server.log and each case's client output (CVS's benchmark_node/benchmark_results.log is the case's stdout)
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.config.server_node_list: not carried over: the server runs on the first 2 node(s) of tests/fixtures/cli/import/cluster.json, in its order (rank 0 on gpu01), as the ssh launcher takes them
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.config.benchmark_serv_node: not carried over: the client runs on gpu01, the server's rank 0, against 127.0.0.1 (CVS's client host when benchmark_serv_node is rank 0); assay asks http://gpu01:PORT/health from its own host
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.config.nic_type: not carried over: CVS's NIC setup scripts and ibv device checks read it; assay runs neither
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.config.hca_id_prefix: not carried over: CVS's NIC setup scripts and ibv device checks read it; assay runs neither
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.config.mount_vol: not carried over: CVS's NIC setup scripts and ibv device checks read it; assay runs neither
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.config.container_image: not carried over: each node's server runs on the node, outside the container (the client runs in it on gpu01): sglang.launch_server must be installed on every node; CVS's container also sets LD_LIBRARY_PATH and PYTHONPATH for its image, and its env script LD_LIBRARY_PATH for Mooncake
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.config.nnodes: not carried over: CVS starts ranks above 0 with --host set to their node's name; here every rank gets --host 0.0.0.0 (only rank 0 serves HTTP)
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.benchmark_params.llama-70b: not carried over: CVS also runs an RMSNorm kernel test, probes the OpenAI endpoints and checks dmesg around the benchmark; readiness is SGLang's /health, not CVS's grep of the server log
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.benchmark_params.llama-70b.inference_tests.bench_serv_generated_shared_prefix: not carried over: CVS runs this test too; assay does not
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.benchmark_params.llama-70b.inference_tests.long_ctx_niah: not carried over: CVS runs this test too; assay does not
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.benchmark_params.llama-70b.inference_tests.lm_eval_hellaswag: not carried over: CVS runs this test too; assay does not
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.benchmark_params.llama-70b.inference_tests.lm_eval_gsm8k: not carried over: CVS runs this test too; assay does not
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.benchmark_params.llama-70b.max_concurrency: not carried over: each cell's CONC replaces it, as in CVS's benchmark test
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.benchmark_params.llama-70b.tokenizer_mode: not carried over: CVS passes it to no command
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.benchmark_params.llama-70b.inference_poll_iterations: not carried over: CVS's readiness wait does not read it (120 s, then 15 polls 120 s apart): the suite waits 1920 s for /health
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json: $.benchmark_params.llama-70b.context_length: not carried over: not a key CVS's SGLang loader reads
