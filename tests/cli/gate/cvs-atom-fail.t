# The same file on a slower run with one failed request (ATOM writes no
# 'failed': CVS derives num_prompts - completed): four tier metrics fail.
args: gate --thresholds tests/fixtures/inference/cvs/mi300x_atom_gpt-oss-120b_bf16_threshold.json --combo ISL=7168,OSL=1024,TP=8,CONC=64 tests/fixtures/inference/atom-gpt-oss-120b-fail.json
exit: 1
--- stdout
status   gate       metric                                   value                spec      message
SKIPPED  threshold  tier/scaling                             -                              scaling tier not configured for single-node runs
PASS     threshold  client.total_token_throughput/value      31857.778 tok/s      >= 0      31857.8 >= 0
FAIL     threshold  client.output_throughput/value           3982.2222 tok/s      >= 4200   3982.22 < 4200
PASS     threshold  client.per_gpu_throughput/value          3982.2222 tok/s/GPU  >= 0      3982.22 >= 0
FAIL     threshold  client.output_tput_per_gpu/value         497.77778 tok/s/GPU  >= 525    497.778 < 525
FAIL     threshold  client.mean_ttft_ms/value                560 ms               <= 500    560 > 500
RECORD   threshold  client.median_ttft_ms/value              540 ms                         CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p90_ttft_ms/value                 -                              missing; CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p95_ttft_ms/value                 -                              missing; CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
PASS     threshold  client.p99_ttft_ms/value                 700 ms               <= 1e+06  700 <= 1e+06
FAIL     threshold  client.mean_tpot_ms/value                16.25 ms             <= 15     16.25 > 15
RECORD   threshold  client.median_tpot_ms/value              16 ms                          CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p90_tpot_ms/value                 -                              missing; CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p95_tpot_ms/value                 -                              missing; CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
PASS     threshold  client.p99_tpot_ms/value                 19 ms                <= 1e+06  19 <= 1e+06
RECORD   threshold  client.mean_itl_ms/value                 16.25 ms                       CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.median_itl_ms/value               15.5 ms                        CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p95_itl_ms/value                  -                              missing; CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p99_itl_ms/value                  22 ms                          CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.mean_e2el_ms/value                17200 ms                       CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.median_e2el_ms/value              17000 ms                       CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p90_e2el_ms/value                 -                              missing; CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p95_e2el_ms/value                 -                              missing; CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p99_e2el_ms/value                 18100 ms                       CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
PASS     threshold  client.success_rate/value                0.875 ratio          >= 0      0.875 >= 0
PASS     threshold  client.failed/value                      1 requests           <= 1e+09  1 <= 1e+09
RECORD   threshold  client.best_of/value                     1 value                        no threshold
RECORD   threshold  client.num_prompts/value                 8 requests                     no threshold
RECORD   threshold  client.burstiness/value                  1 value                        no threshold
RECORD   threshold  client.max_concurrency/value             64 requests                    no threshold
RECORD   threshold  client.duration/value                    1.8 s                          no threshold
RECORD   threshold  client.completed/value                   7 requests                     no threshold
RECORD   threshold  client.total_input_tokens/value          50176 tokens                   no threshold
RECORD   threshold  client.total_output_tokens/value         7168 tokens                    no threshold
RECORD   threshold  client.request_throughput/value          3.8888889 req/s                no threshold
RECORD   threshold  client.std_ttft_ms/value                 45 ms                          no threshold
RECORD   threshold  client.std_tpot_ms/value                 0.75 ms                        no threshold
RECORD   threshold  client.std_itl_ms/value                  2 ms                           no threshold
RECORD   threshold  client.std_e2el_ms/value                 400 ms                         no threshold
RECORD   threshold  client.normalized_ttft_ms_per_tok/value  0.078125 ms/tok                no threshold
RECORD   threshold  client.decode_throughput_p50/value       62.5 tok/s                     no threshold

41 verdicts: 6 pass, 4 fail, 30 record, 1 skipped
--- stderr
