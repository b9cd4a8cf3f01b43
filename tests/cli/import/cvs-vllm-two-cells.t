# The filled vLLM config with a second run (8k/1k at concurrency 64) whose
# combination has no goodput_slo (tests/fixtures/inference/cvs/SOURCE.md):
# one server for both cells, its --max-model-len the larger cell's (CVS's
# (isl + osl) x (1 + ratio) + prefix + 8: 9224), and no --goodput, with a note
args: import cvs --user alice tests/fixtures/inference/cvs/vllm_two_cells_mixed_goodput.json
exit: 0
--- stdout
{
  "kind": "inference",
  "name": "vllm_two_cells_mixed_goodput",
  "description": "ROCm/cvs vllm_two_cells_mixed_goodput.json (vllm, mi300x) as an assay suite, written by `assay import cvs`: assay starts vllm serve, waits for /health and runs vllm bench serve against it once per cell.",
  "server": {
    "argv": ["env", "HF_HUB_CACHE=/models", "VLLM_USE_AITER_UNIFIED_ATTENTION=1", "VLLM_ROCM_USE_AITER_MHA=0", "VLLM_ROCM_USE_AITER_FUSED_MOE_A16W4=1", "HF_HUB_OFFLINE=1", "TRANSFORMERS_OFFLINE=1", "vllm", "serve", "meta-llama/Llama-3.3-70B-Instruct", "--tensor-parallel-size", "8", "--port", "8888", "--max-model-len", "9224", "--kv-cache-dtype", "fp8"],
    "health": "http://0.0.0.0:8888/health",
    "health_timeout_s": 3960
  },
  "combos": {
    "w_llama33-70b_fp8_1k1k-conc16": {
      "ISL": 1024,
      "OSL": 1024,
      "TP": 8,
      "CONC": 16
    },
    "w_llama33-70b_fp8_8k1k-conc64": {
      "ISL": 8192,
      "OSL": 1024,
      "TP": 8,
      "CONC": 64
    }
  },
  "runs": ["w_llama33-70b_fp8_1k1k-conc16", "w_llama33-70b_fp8_8k1k-conc64"],
  "container": {
    "runtime": "docker",
    "image": "rocm/vllm:latest",
    "devices": "amd",
    "mounts": ["/home/alice:/home/alice", "/data/models:/models:ro"],
    "options": ["--privileged"]
  },
  "argv": ["vllm", "bench", "serve", "--model", "meta-llama/Llama-3.3-70B-Instruct", "--base-url", "http://0.0.0.0:8888", "--backend", "vllm", "--dataset-name", "random", "--num-prompts", "320", "--request-rate", "inf", "--burstiness", "1.0", "--tokenizer-mode", "auto", "--seed", "0", "--random-range-ratio", "0.0", "--random-prefix-len", "0", "--percentile-metrics", "ttft,tpot,itl,e2el", "--metric-percentiles", "50,90,95,99", "--random-input-len", "{ISL}", "--random-output-len", "{OSL}", "--max-concurrency", "{CONC}", "--ignore-eos", "--save-result", "--result-dir", "{CASE_DIR}", "--result-filename", "results"],
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
tests/fixtures/inference/cvs/vllm_two_cells_mixed_goodput.json: $.paths.models_dir: not carried over: CVS's test_model_fetch checks the weights there before the sweep; the suite sets HF_HUB_CACHE to it and leaves the weights to you
tests/fixtures/inference/cvs/vllm_two_cells_mixed_goodput.json: $.paths.hf_token_file: not carried over: assay reads no token files: set HF_TOKEN in assay's environment (the suite names it in $.secrets)
tests/fixtures/inference/cvs/vllm_two_cells_mixed_goodput.json: $.paths.log_dir: not carried over: the case folder holds server.log, the client's output and results
tests/fixtures/inference/cvs/vllm_two_cells_mixed_goodput.json: $.sweep.sequence_combinations: not carried over: goodput_slo: the client passes --goodput only when every cell has one
tests/fixtures/inference/cvs/vllm_two_cells_mixed_goodput.json: $.container.runtime.args.shm_size: not carried over: no counterpart in the container block; add it to $.container.options if it matters
tests/fixtures/inference/cvs/vllm_two_cells_mixed_goodput.json: $.container: not carried over: name and lifetime: assay runs one container per case, named after the run and the case
tests/fixtures/inference/cvs/vllm_two_cells_mixed_goodput.json: $.container: not carried over: the inference server runs on this host, outside the container (the client runs in it): start vllm serve where it is installed
tests/fixtures/inference/cvs/vllm_two_cells_mixed_goodput.json: $.framework: not carried over: CVS also probes the OpenAI endpoints once, polls amd-smi (gpu.*) and scrapes /metrics (prom.*) around each cell: those rows are not measured (their specs are SKIPPED); readiness is vLLM's /health, not CVS's grep of the server log
tests/fixtures/inference/cvs/vllm_two_cells_mixed_goodput.json: $.sweep.runs: not carried over: CVS starts a server per sequence combination; the suite starts one for the run, with the largest --max-model-len a cell needs
tests/fixtures/inference/cvs/vllm_two_cells_mixed_goodput.json: $.params.client_poll_count: not carried over: the client runs to its end; the case's timeout bounds it
