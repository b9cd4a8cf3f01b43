# Plain numbers in an SGLang threshold file get CVS's kinds
# (normalize_sglang_threshold_spec): throughput min_tok_s 900 passes (1231.88),
# mean TTFT max_ms 200 fails (242), goodput min 0.99 passes, mfu min 0.2 fails
# (0.0995): CVS's verdicts.
args: gate --thresholds tests/fixtures/sglang/plain_threshold.json --combo ISL=1024,OSL=1024,TP=8,PP=1,CONC=64 tests/fixtures/sglang/benchmark_results.ndjson
exit: 1
--- stdout
status   gate       metric                           value              spec     message
PASS     threshold  output_throughput/value          1231.88 tok/s      >= 900   1231.88 >= 900
FAIL     threshold  ttft_ms/mean                     242 ms             <= 200   242 > 200
PASS     threshold  goodput/ratio                    1 ratio            >= 0.99  1 >= 0.99
FAIL     threshold  mfu/ratio                        0.099497976 ratio  >= 0.2   0.099498 < 0.2
RECORD   threshold  successful_requests/count        640 requests                no threshold
RECORD   threshold  benchmark_duration/value         532 s                       no threshold
RECORD   threshold  total_input_tokens/count         655360 tokens               no threshold
RECORD   threshold  total_generated_tokens/count     655360 tokens               no threshold
RECORD   threshold  request_throughput/value         1.2 req/s                   no threshold
RECORD   threshold  input_throughput/value           1231.88 tok/s               no threshold
RECORD   threshold  e2e_latency_ms/mean              3460 ms                     no threshold
RECORD   threshold  e2e_latency_ms/median            3410 ms                     no threshold
RECORD   threshold  ttft_ms/median                   237 ms                      no threshold
RECORD   threshold  ttft_ms/p99                      504 ms                      no threshold
RECORD   threshold  tpot_ms/mean                     20 ms                       no threshold
RECORD   threshold  tpot_ms/median                   19.5 ms                     no threshold
RECORD   threshold  tpot_ms/p99                      36 ms                       no threshold
RECORD   threshold  itl_ms/mean                      20 ms                       no threshold
RECORD   threshold  itl_ms/median                    19 ms                       no threshold
RECORD   threshold  itl_ms/p99                       62 ms                       no threshold
RECORD   threshold  output_throughput_per_gpu/value  153.985 tok/s/GPU           no threshold

21 verdicts: 2 pass, 2 fail, 17 record, 0 skipped
--- stderr
