# The distributed vLLM config with an explicit ib_hca_devices list: CVS
# exports NCCL_IB_HCA as the list joined with commas (vllm_job.py,
# build_server_cmd), before the ib_netdev variables; no ib_hca_devices note
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster.json tests/fixtures/inference/cvs/vllm_distributed_hca_list.json
exit: 0
--- stdout
{
  "kind": "inference",
  "name": "vllm_distributed_hca_list",
  "description": "ROCm/cvs vllm_distributed_hca_list.json (vllm, mi300x) as an assay suite, written by `assay import cvs`: assay starts vllm serve on every node, waits for /health and runs vllm bench serve against it once per cell.",
  "server": {
    "argv": ["bash", "-c", "if [ \"$NODE_RANK\" -gt 0 ]; then set -- \"$@\" --headless; fi; exec \"$@\" --node-rank \"$NODE_RANK\"", "vllm-node", "env", "HF_HUB_CACHE=/models", "VLLM_USE_AITER_UNIFIED_ATTENTION=1", "VLLM_ROCM_USE_AITER_MHA=0", "VLLM_ROCM_USE_AITER_FUSED_MOE_A16W4=1", "NCCL_IB_HCA=rdma0,rdma1", "NCCL_SOCKET_IFNAME=eno0", "GLOO_SOCKET_IFNAME=eno0", "TP_SOCKET_IFNAME=eno0", "HF_HUB_OFFLINE=1", "TRANSFORMERS_OFFLINE=1", "vllm", "serve", "meta-llama/Llama-3.3-70B-Instruct", "--tensor-parallel-size", "8", "--port", "8888", "--max-model-len", "2056", "--master-addr", "10.0.0.1", "--master-port", "29501", "--nnodes", "2", "--pipeline-parallel-size", "2", "--distributed-executor-backend", "mp", "--kv-cache-dtype", "fp8"],
    "health": "http://gpu01:8888/health",
    "health_timeout_s": 3960,
    "nodes": 2
  },
  "combos": {
    "w_llama33-70b_fp8_1k1k-conc16": {
      "ISL": 1024,
      "OSL": 1024,
      "TP": 8,
      "PP": 2,
      "CONC": 16,
      "GOODPUT_TTFT": "1000000000",
      "GOODPUT_TPOT": "1000000000",
      "GOODPUT_E2EL": "1000000000"
    }
  },
  "runs": ["w_llama33-70b_fp8_1k1k-conc16"],
  "container": {
    "runtime": "docker",
    "image": "rocm/vllm:latest",
    "devices": "amd",
    "mounts": ["/home/alice:/home/alice", "/data/models:/models:ro"],
    "options": ["--privileged"]
  },
  "argv": ["vllm", "bench", "serve", "--model", "meta-llama/Llama-3.3-70B-Instruct", "--base-url", "http://0.0.0.0:8888", "--backend", "vllm", "--dataset-name", "random", "--num-prompts", "320", "--request-rate", "inf", "--burstiness", "1.0", "--tokenizer-mode", "auto", "--seed", "0", "--random-range-ratio", "0.0", "--random-prefix-len", "0", "--percentile-metrics", "ttft,tpot,itl,e2el", "--metric-percentiles", "50,90,95,99", "--random-input-len", "{ISL}", "--random-output-len", "{OSL}", "--max-concurrency", "{CONC}", "--ignore-eos", "--save-result", "--result-dir", "{CASE_DIR}", "--result-filename", "results", "--goodput", "ttft:{GOODPUT_TTFT}", "tpot:{GOODPUT_TPOT}", "e2el:{GOODPUT_E2EL}"],
  "env": {
    "HF_HUB_CACHE": "/models",
    "VLLM_USE_AITER_UNIFIED_ATTENTION": "1",
    "VLLM_ROCM_USE_AITER_MHA": "0",
    "VLLM_ROCM_USE_AITER_FUSED_MOE_A16W4": "1",
    "NCCL_IB_HCA": "rdma0,rdma1",
    "NCCL_SOCKET_IFNAME": "eno0",
    "GLOO_SOCKET_IFNAME": "eno0",
    "TP_SOCKET_IFNAME": "eno0",
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1"
  },
  "secrets": ["HF_TOKEN"],
  "parser": "vllm-bench",
  "results": ["{CASE_DIR}/results"],
  "context": {
    "tp": "{TP}",
    "isl": "{ISL}",
    "osl": "{OSL}",
    "pp": "{PP}"
  },
  "gpus_per_node": 8,
  "gates": {
    "thresholds": "tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_distributed_threshold.json"
  },
  "launcher": {
    "type": "ssh",
    "cluster_file": "tests/fixtures/cli/import/cluster.json"
  }
}
--- stderr
tests/fixtures/inference/cvs/vllm_distributed_hca_list.json: $.paths.models_dir: not carried over: CVS's test_model_fetch checks the weights there before the sweep; the suite sets HF_HUB_CACHE to it and leaves the weights to you
tests/fixtures/inference/cvs/vllm_distributed_hca_list.json: $.paths.hf_token_file: not carried over: assay reads no token files: set HF_TOKEN in assay's environment (the suite names it in $.secrets)
tests/fixtures/inference/cvs/vllm_distributed_hca_list.json: $.paths.log_dir: not carried over: the case folder holds server.log, the client's output and results
tests/fixtures/inference/cvs/vllm_distributed_hca_list.json: $.container.runtime.args.shm_size: not carried over: no counterpart in the container block; add it to $.container.options if it matters
tests/fixtures/inference/cvs/vllm_distributed_hca_list.json: $.container: not carried over: name and lifetime: assay runs one container per case, named after the run and the case
tests/fixtures/inference/cvs/vllm_distributed_hca_list.json: $.container: not carried over: each node's vllm serve runs on the node, outside the container (the client runs in it on gpu01): vllm must be installed on every node
tests/fixtures/inference/cvs/vllm_distributed_hca_list.json: $.framework: not carried over: CVS also probes the OpenAI endpoints once, polls amd-smi (gpu.*) and scrapes /metrics (prom.*) around each cell: those rows are not measured (their specs are SKIPPED); readiness is vLLM's /health, not CVS's grep of the server log
tests/fixtures/inference/cvs/vllm_distributed_hca_list.json: $.sweep.runs: not carried over: CVS starts a server per sequence combination; the suite starts one for the run, with the largest --max-model-len a cell needs
tests/fixtures/inference/cvs/vllm_distributed_hca_list.json: $.params.nnodes: not carried over: vllm serve runs on the first 2 node(s) of tests/fixtures/cli/import/cluster.json, in its order (rank 0 on gpu01, --headless on the others), as the ssh launcher takes them; the client runs on gpu01 against base_url, as CVS's runs on its head; assay asks http://gpu01:PORT/health from its own host
tests/fixtures/inference/cvs/vllm_distributed_hca_list.json: $.params.client_poll_count: not carried over: the client runs to its end; the case's timeout bounds it
