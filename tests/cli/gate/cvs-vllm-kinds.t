# Every CVS kind on a vllm result without goodput and with 4 failed requests:
# within (tolerance_pct), min_ratio (reference), min_tok_s, max, min, info;
# client.goodput missing fails (CVS: 'value is None'); client.std_ttft_ms is
# recorded (CVS's vLLM suite never reads a spec outside CLIENT_METRICS);
# prom.* is skipped; the accuracy block is not a cell.
args: gate --thresholds tests/fixtures/inference/cvs-kinds_threshold.json --combo ISL=1024,OSL=1024,TP=8,CONC=32 tests/fixtures/inference/vllm-no-goodput-c32.json
exit: 1
--- stdout
status   gate       metric                                   value                spec                               message
PASS     threshold  client.output_throughput/value           2690.9272 tok/s      2700 +/- 5%                        2690.93 is within [2565, 2835]
PASS     threshold  client.total_token_throughput/value      5381.8545 tok/s      >= 1.9 x client.output_throughput  ratio 2.000 >= 1.9 (vs client.output_throughput)
FAIL     threshold  client.per_gpu_throughput/value          672.73181 tok/s/GPU  >= 700                             672.732 < 700
PASS     threshold  client.normalized_ttft_ms_per_tok/value  0.40039062 ms/tok    <= 0.5                             0.400391 <= 0.5
FAIL     threshold  client.goodput/value                     -                    >= 0                               missing: no row has this metric
FAIL     threshold  client.failed/value                      4 requests           <= 0                               4 > 0
FAIL     threshold  client.success_rate/value                0.9875 ratio         >= 0.99                            0.9875 < 0.99
RECORD   threshold  client.decode_latency_ratio/value        1.6521739 ratio      info                               info: recorded
RECORD   threshold  client.std_ttft_ms/value                 60 ms                                                   CVS's vLLM suite never reads this spec (not one of vllm_parsing.py's CLIENT_METRICS)
SKIPPED  threshold  prom.queue_time_p50_ms/value             -                    <= 10                              missing (not in the client's result: CVS skips gpu.* and prom.* when amd-smi or /metrics gave no value)
RECORD   threshold  client.num_prompts/value                 320 requests                                            no threshold
RECORD   threshold  client.burstiness/value                  1 value                                                 no threshold
RECORD   threshold  client.max_concurrency/value             32 requests                                             no threshold
RECORD   threshold  client.duration/value                    120.25 s                                                no threshold
RECORD   threshold  client.completed/value                   316 requests                                            no threshold
RECORD   threshold  client.total_input_tokens/value          323584 tokens                                           no threshold
RECORD   threshold  client.total_output_tokens/value         323584 tokens                                           no threshold
RECORD   threshold  client.request_throughput/value          2.6278586 req/s                                         no threshold
RECORD   threshold  client.max_output_tokens_per_s/value     2112 tok/s                                              no threshold
RECORD   threshold  client.max_concurrent_requests/value     32 requests                                             no threshold
RECORD   threshold  client.mean_ttft_ms/value                410 ms                                                  no threshold
RECORD   threshold  client.median_ttft_ms/value              395.5 ms                                                no threshold
RECORD   threshold  client.p50_ttft_ms/value                 395.5 ms                                                no threshold
RECORD   threshold  client.p90_ttft_ms/value                 480 ms                                                  no threshold
RECORD   threshold  client.p95_ttft_ms/value                 510.5 ms                                                no threshold
RECORD   threshold  client.p99_ttft_ms/value                 640 ms                                                  no threshold
RECORD   threshold  client.mean_tpot_ms/value                12.5 ms                                                 no threshold
RECORD   threshold  client.median_tpot_ms/value              12 ms                                                   no threshold
RECORD   threshold  client.std_tpot_ms/value                 1 ms                                                    no threshold
RECORD   threshold  client.p50_tpot_ms/value                 12 ms                                                   no threshold
RECORD   threshold  client.p90_tpot_ms/value                 13.5 ms                                                 no threshold
RECORD   threshold  client.p95_tpot_ms/value                 14 ms                                                   no threshold
RECORD   threshold  client.p99_tpot_ms/value                 16 ms                                                   no threshold
RECORD   threshold  client.mean_itl_ms/value                 12.5 ms                                                 no threshold
RECORD   threshold  client.median_itl_ms/value               11.5 ms                                                 no threshold
RECORD   threshold  client.std_itl_ms/value                  2 ms                                                    no threshold
RECORD   threshold  client.p50_itl_ms/value                  11.5 ms                                                 no threshold
RECORD   threshold  client.p90_itl_ms/value                  14 ms                                                   no threshold
RECORD   threshold  client.p95_itl_ms/value                  15.5 ms                                                 no threshold
RECORD   threshold  client.p99_itl_ms/value                  19 ms                                                   no threshold
RECORD   threshold  client.mean_e2el_ms/value                13200 ms                                                no threshold
RECORD   threshold  client.median_e2el_ms/value              13100 ms                                                no threshold
RECORD   threshold  client.std_e2el_ms/value                 350 ms                                                  no threshold
RECORD   threshold  client.p50_e2el_ms/value                 13100 ms                                                no threshold
RECORD   threshold  client.p90_e2el_ms/value                 13600 ms                                                no threshold
RECORD   threshold  client.p95_e2el_ms/value                 13800 ms                                                no threshold
RECORD   threshold  client.p99_e2el_ms/value                 14500 ms                                                no threshold
RECORD   threshold  client.decode_throughput_p50/value       83.333333 tok/s                                         no threshold

48 verdicts: 3 pass, 4 fail, 40 record, 1 skipped
--- stderr
