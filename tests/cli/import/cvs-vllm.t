# ROCm/cvs dddd914's vLLM config (model and image filled in, enforce_thresholds
# true: tests/fixtures/inference/cvs/SOURCE.md) as a command suite: one case
# per sweep run (vllm serve, /health, vllm bench serve with CVS's flags),
# rows from the saved result, gated by its threshold file per cell; every
# key CVS uses that the suite does not carry is named on stderr
args: import cvs --user alice tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_filled.json
exit: 0
--- stdout
{
  "kind": "command",
  "name": "mi300x_vllm_llama33-70b_fp8_single_filled",
  "description": "ROCm/cvs mi300x_vllm_llama33-70b_fp8_single_filled.json (vllm, mi300x) as an assay suite, written by `assay import cvs`: each case starts vllm serve, waits for /health, runs vllm bench serve and stops the server.",
  "combos": {
    "w_llama33-70b_fp8_1k1k-conc16": {
      "ISL": 1024,
      "OSL": 1024,
      "TP": 8,
      "CONC": 16,
      "MAX_MODEL_LEN": 2056,
      "GOODPUT": "--goodput ttft:1000000000 tpot:1000000000 e2el:1000000000"
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
  "argv": ["sh", "-c", "vllm serve meta-llama/Llama-3.3-70B-Instruct --tensor-parallel-size {TP} --port 8888 --max-model-len {MAX_MODEL_LEN} --kv-cache-dtype fp8 >{CASE_DIR}/server.log 2>&1 &\nserver=$!\ntrap 'kill $server 2>/dev/null; wait $server 2>/dev/null' EXIT\nn=0\nuntil curl -sf http://0.0.0.0:8888/health >/dev/null; do\n  kill -0 $server 2>/dev/null || { echo 'vllm serve exited before it was healthy: see server.log' >&2; exit 1; }\n  n=$((n + 1)); [ $n -le 396 ] || { echo 'vllm serve not healthy after 3960 s' >&2; exit 1; }\n  sleep 10\ndone\nvllm bench serve --model meta-llama/Llama-3.3-70B-Instruct --base-url http://0.0.0.0:8888 --backend vllm --dataset-name random --num-prompts 320 --request-rate inf --burstiness 1.0 --tokenizer-mode auto --seed 0 --random-range-ratio 0.0 --random-prefix-len 0 --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --random-input-len {ISL} --random-output-len {OSL} --max-concurrency {CONC} --ignore-eos --save-result --result-dir {CASE_DIR} --result-filename results {GOODPUT}\n"],
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
  "nodes": 1,
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
tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_filled.json: $.framework: not carried over: CVS also probes the OpenAI endpoints once, polls amd-smi (gpu.*) and scrapes /metrics (prom.*) around each cell: those rows are not measured (their specs are SKIPPED); readiness is vLLM's /health, not CVS's grep of the server log
tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_filled.json: $.sweep.runs: not carried over: CVS reuses a running server for cells that differ only in concurrency; the suite starts one per case
tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_filled.json: $.params.client_poll_count: not carried over: the client runs to its end; the case's timeout bounds it
