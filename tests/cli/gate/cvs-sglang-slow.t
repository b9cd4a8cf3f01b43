# The slower run (620 of 640 prompts, 869.7 tok/s): CVS fails
# output_throughput_per_sec (min_tok_s 900) and goodput (min 0.99: 620/640 =
# 0.96875) and passes the rest, as here.
args: gate --thresholds tests/fixtures/sglang/mi30x_sglang_llama_70b_threshold.json --combo ISL=1024,OSL=1024,TP=8,PP=1,CONC=64 tests/fixtures/sglang/benchmark_results-slow.ndjson
exit: 1
--- stdout
status   gate       metric                           value               spec       message
FAIL     threshold  output_throughput/value          869.7 tok/s         >= 900     869.7 < 900
PASS     threshold  ttft_ms/mean                     242 ms              <= 60000   242 <= 60000
PASS     threshold  tpot_ms/mean                     20 ms               <= 150     20 <= 150
PASS     threshold  e2e_latency_ms/mean              3460 ms             <= 120000  3460 <= 120000
FAIL     threshold  goodput/ratio                    0.96875 ratio       >= 0.99    0.96875 < 0.99
PASS     threshold  mfu/ratio                        0.071377871 ratio   >= 0.02    0.0713779 >= 0.02
RECORD   threshold  successful_requests/count        620 requests                   no threshold
RECORD   threshold  benchmark_duration/value         730 s                          no threshold
RECORD   threshold  total_input_tokens/count         655360 tokens                  no threshold
RECORD   threshold  total_generated_tokens/count     634880 tokens                  no threshold
RECORD   threshold  request_throughput/value         14.04 req/s                    no threshold
RECORD   threshold  input_throughput/value           14371.93 tok/s                 no threshold
RECORD   threshold  e2e_latency_ms/median            3410 ms                        no threshold
RECORD   threshold  ttft_ms/median                   237 ms                         no threshold
RECORD   threshold  ttft_ms/p99                      504 ms                         no threshold
RECORD   threshold  tpot_ms/median                   19.5 ms                        no threshold
RECORD   threshold  tpot_ms/p99                      36 ms                          no threshold
RECORD   threshold  itl_ms/mean                      20 ms                          no threshold
RECORD   threshold  itl_ms/median                    19 ms                          no threshold
RECORD   threshold  itl_ms/p99                       62 ms                          no threshold
RECORD   threshold  output_throughput_per_gpu/value  108.7125 tok/s/GPU             no threshold

21 verdicts: 4 pass, 2 fail, 15 record, 0 skipped
--- stderr
