# ROCm/cvs dddd914's vLLM config (model and image filled in, enforce_thresholds
# true: tests/fixtures/inference/cvs/SOURCE.md) as an inference suite: its
# server vllm serve (waited for at /health), one case per sweep run (vllm
# bench serve with CVS's flags), rows from the saved result, gated by its
# threshold file per cell; every
# key CVS uses that the suite does not carry is named on stderr
args: import cvs --user alice tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_filled.json
exit: 0
--- stdout
{
  "kind": "inference",
  "name": "mi300x_vllm_llama33-70b_fp8_single_filled",
  "description": "ROCm/cvs mi300x_vllm_llama33-70b_fp8_single_filled.json (vllm, mi300x) as an assay suite, written by `assay import cvs`: assay starts vllm serve, waits for /health and runs vllm bench serve against it once per cell.",
  "server": {
    "argv": ["env", "HF_HUB_CACHE=/models", "VLLM_USE_AITER_UNIFIED_ATTENTION=1", "VLLM_ROCM_USE_AITER_MHA=0", "VLLM_ROCM_USE_AITER_FUSED_MOE_A16W4=1", "HF_HUB_OFFLINE=1", "TRANSFORMERS_OFFLINE=1", "vllm", "serve", "meta-llama/Llama-3.3-70B-Instruct", "--tensor-parallel-size", "8", "--port", "8888", "--max-model-len", "2056", "--kv-cache-dtype", "fp8"],
    "health": "http://0.0.0.0:8888/health",
    "health_timeout_s": 3960
  },
  "combos": {
    "w_llama33-70b_fp8_1k1k-conc16": {
      "ISL": 1024,
      "OSL": 1024,
      "TP": 8,
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
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1"
  },
  "secrets": ["HF_TOKEN"],
  "parser": "vllm-bench",
  "results": ["{CASE_DIR}/results"],
  "context": {
    "tp": "{TP}",
    "isl": "{ISL}",
    "osl": "{OSL}"
  },
  "gpus_per_node": 8,
  "gates": {
    "thresholds": "tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_threshold.json"
  }
}
--- stderr
tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_filled.json: $.paths.models_dir: not carried over: CVS's test_model_fetch checks the weights there before the sweep; the suite sets HF_HUB_CACHE to it and leaves the weights to you
tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_filled.json: $.paths.hf_token_file: not carried over: assay reads no token files: set HF_TOKEN in assay's environment (the suite names it in $.secrets)
tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_filled.json: $.paths.log_dir: not carried over: the case folder holds server.log, the client's output and results
tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_filled.json: $.container.runtime.args.shm_size: not carried over: no counterpart in the container block; add it to $.container.options if it matters
tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_filled.json: $.container: not carried over: name and lifetime: assay runs one container per case, named after the run and the case
tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_filled.json: $.container: not carried over: the inference server runs on this host, outside the container (the client runs in it): start vllm serve where it is installed
tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_filled.json: $.framework: not carried over: CVS also probes the OpenAI endpoints once, polls amd-smi (gpu.*) and scrapes /metrics (prom.*) around each cell: those rows are not measured (their specs are SKIPPED); readiness is vLLM's /health, not CVS's grep of the server log
tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_filled.json: $.sweep.runs: not carried over: CVS starts a server per sequence combination; the suite starts one for the run, with the largest --max-model-len a cell needs
tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_filled.json: $.params.client_poll_count: not carried over: the client runs to its end; the case's timeout bounds it
