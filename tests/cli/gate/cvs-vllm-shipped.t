# ROCm/cvs dddd914's shipped vLLM threshold file, unchanged (every value 0,
# 'not yet measured'), on a vllm bench serve result: CVS's rules with
# enforcement on: every latency fails max_ms 0, gpu.* and prom.* are
# skipped (the client's result has none), other keys are recorded.
args: gate --thresholds tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_threshold.json --combo ISL=1024,OSL=1024,TP=8,CONC=16 tests/fixtures/inference/vllm-llama33-70b-c16.json
exit: 1
--- stdout
status   gate       metric                                   value                spec  message
PASS     threshold  client.total_token_throughput/value      3630.8033 tok/s      >= 0  3630.8 >= 0
PASS     threshold  client.output_throughput/value           1815.4017 tok/s      >= 0  1815.4 >= 0
FAIL     threshold  client.mean_ttft_ms/value                245.5 ms             <= 0  245.5 > 0
FAIL     threshold  client.median_ttft_ms/value              231.25 ms            <= 0  231.25 > 0
FAIL     threshold  client.p90_ttft_ms/value                 300.5 ms             <= 0  300.5 > 0
FAIL     threshold  client.p95_ttft_ms/value                 322.75 ms            <= 0  322.75 > 0
FAIL     threshold  client.p99_ttft_ms/value                 410 ms               <= 0  410 > 0
FAIL     threshold  client.mean_tpot_ms/value                8.5 ms               <= 0  8.5 > 0
FAIL     threshold  client.median_tpot_ms/value              8.25 ms              <= 0  8.25 > 0
FAIL     threshold  client.p90_tpot_ms/value                 9 ms                 <= 0  9 > 0
FAIL     threshold  client.p95_tpot_ms/value                 9.25 ms              <= 0  9.25 > 0
FAIL     threshold  client.p99_tpot_ms/value                 10.5 ms              <= 0  10.5 > 0
FAIL     threshold  client.mean_itl_ms/value                 8.5 ms               <= 0  8.5 > 0
FAIL     threshold  client.median_itl_ms/value               8 ms                 <= 0  8 > 0
FAIL     threshold  client.p95_itl_ms/value                  10 ms                <= 0  10 > 0
FAIL     threshold  client.p99_itl_ms/value                  12 ms                <= 0  12 > 0
FAIL     threshold  client.mean_e2el_ms/value                8940 ms              <= 0  8940 > 0
FAIL     threshold  client.median_e2el_ms/value              8900.5 ms            <= 0  8900.5 > 0
FAIL     threshold  client.p90_e2el_ms/value                 9200 ms              <= 0  9200 > 0
FAIL     threshold  client.p95_e2el_ms/value                 9300.25 ms           <= 0  9300.25 > 0
FAIL     threshold  client.p99_e2el_ms/value                 9600 ms              <= 0  9600 > 0
PASS     threshold  client.success_rate/value                1 ratio              >= 0  1 >= 0
PASS     threshold  client.failed/value                      0 requests           <= 0  0 <= 0
SKIPPED  threshold  gpu.peak_gpu_memory_mb/value             -                    <= 0  missing (not in the client's result: CVS skips gpu.* and prom.* when amd-smi or /metrics gave no value)
SKIPPED  threshold  gpu.model_load_memory_mb/value           -                    <= 0  missing (not in the client's result: CVS skips gpu.* and prom.* when amd-smi or /metrics gave no value)
SKIPPED  threshold  gpu.model_load_s/value                   -                    <= 0  missing (not in the client's result: CVS skips gpu.* and prom.* when amd-smi or /metrics gave no value)
SKIPPED  threshold  gpu.gpu_bandwidth_util_pct/value         -                    >= 0  missing (not in the client's result: CVS skips gpu.* and prom.* when amd-smi or /metrics gave no value)
SKIPPED  threshold  gpu.gpu_compute_util_pct/value           -                    >= 0  missing (not in the client's result: CVS skips gpu.* and prom.* when amd-smi or /metrics gave no value)
SKIPPED  threshold  prom.queue_time_p50_ms/value             -                    <= 0  missing (not in the client's result: CVS skips gpu.* and prom.* when amd-smi or /metrics gave no value)
SKIPPED  threshold  prom.queue_time_p95_ms/value             -                    <= 0  missing (not in the client's result: CVS skips gpu.* and prom.* when amd-smi or /metrics gave no value)
SKIPPED  threshold  prom.prefill_time_p50_ms/value           -                    <= 0  missing (not in the client's result: CVS skips gpu.* and prom.* when amd-smi or /metrics gave no value)
SKIPPED  threshold  prom.prefill_time_p95_ms/value           -                    <= 0  missing (not in the client's result: CVS skips gpu.* and prom.* when amd-smi or /metrics gave no value)
RECORD   threshold  client.num_prompts/value                 320 requests               no threshold
RECORD   threshold  client.burstiness/value                  1 value                    no threshold
RECORD   threshold  client.max_concurrency/value             16 requests                no threshold
RECORD   threshold  client.duration/value                    180.5 s                    no threshold
RECORD   threshold  client.completed/value                   320 requests               no threshold
RECORD   threshold  client.total_input_tokens/value          327680 tokens              no threshold
RECORD   threshold  client.total_output_tokens/value         327680 tokens              no threshold
RECORD   threshold  client.request_throughput/value          1.7728532 req/s            no threshold
RECORD   threshold  client.request_goodput/value             1.77 req/s                 no threshold
RECORD   threshold  client.max_output_tokens_per_s/value     2112 tok/s                 no threshold
RECORD   threshold  client.max_concurrent_requests/value     16 requests                no threshold
RECORD   threshold  client.std_ttft_ms/value                 40.5 ms                    no threshold
RECORD   threshold  client.p50_ttft_ms/value                 231.25 ms                  no threshold
RECORD   threshold  client.std_tpot_ms/value                 0.5 ms                     no threshold
RECORD   threshold  client.p50_tpot_ms/value                 8.25 ms                    no threshold
RECORD   threshold  client.std_itl_ms/value                  1.25 ms                    no threshold
RECORD   threshold  client.p50_itl_ms/value                  8 ms                       no threshold
RECORD   threshold  client.p90_itl_ms/value                  9.5 ms                     no threshold
RECORD   threshold  client.std_e2el_ms/value                 210 ms                     no threshold
RECORD   threshold  client.p50_e2el_ms/value                 8900.5 ms                  no threshold
RECORD   threshold  client.goodput/value                     1.77 req/s                 no threshold
RECORD   threshold  client.per_gpu_throughput/value          453.85042 tok/s/GPU        no threshold
RECORD   threshold  client.normalized_ttft_ms_per_tok/value  0.23974609 ms/tok          no threshold
RECORD   threshold  client.decode_latency_ratio/value        1.5 ratio                  no threshold
RECORD   threshold  client.decode_throughput_p50/value       121.21212 tok/s            no threshold

57 verdicts: 4 pass, 19 fail, 25 record, 9 skipped
--- stderr
