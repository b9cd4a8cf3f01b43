# ROCm/cvs dddd914's shipped ATOM threshold file (gpt-oss-120b, calibrated
# targets: output_throughput >= 4200, output_tput_per_gpu >= 525, mean TTFT
# <= 500 ms, mean TPOT <= 15 ms) on an ATOM benchmark_serving result that
# meets them: ATOM's tiers judged, the rest recorded, scaling skipped on one node.
args: gate --thresholds tests/fixtures/inference/cvs/mi300x_atom_gpt-oss-120b_bf16_threshold.json --combo ISL=7168,OSL=1024,TP=8,CONC=64 tests/fixtures/inference/atom-gpt-oss-120b-pass.json
exit: 0
--- stdout
status   gate       metric                                   value                spec      message
SKIPPED  threshold  tier/scaling                             -                              scaling tier not configured for single-node runs
PASS     threshold  client.total_token_throughput/value      36408.889 tok/s      >= 0      36408.9 >= 0
PASS     threshold  client.output_throughput/value           4551.1111 tok/s      >= 4200   4551.11 >= 4200
PASS     threshold  client.per_gpu_throughput/value          4551.1111 tok/s/GPU  >= 0      4551.11 >= 0
PASS     threshold  client.output_tput_per_gpu/value         568.88889 tok/s/GPU  >= 525    568.889 >= 525
PASS     threshold  client.mean_ttft_ms/value                420.5 ms             <= 500    420.5 <= 500
RECORD   threshold  client.median_ttft_ms/value              410 ms                         CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p90_ttft_ms/value                 -                              missing; CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p95_ttft_ms/value                 -                              missing; CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
PASS     threshold  client.p99_ttft_ms/value                 510 ms               <= 1e+06  510 <= 1e+06
PASS     threshold  client.mean_tpot_ms/value                13.75 ms             <= 15     13.75 <= 15
RECORD   threshold  client.median_tpot_ms/value              13.5 ms                        CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p90_tpot_ms/value                 -                              missing; CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p95_tpot_ms/value                 -                              missing; CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
PASS     threshold  client.p99_tpot_ms/value                 15.5 ms              <= 1e+06  15.5 <= 1e+06
RECORD   threshold  client.mean_itl_ms/value                 13.75 ms                       CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.median_itl_ms/value               13 ms                          CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p95_itl_ms/value                  -                              missing; CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p99_itl_ms/value                  18 ms                          CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.mean_e2el_ms/value                14500 ms                       CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.median_e2el_ms/value              14400 ms                       CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p90_e2el_ms/value                 -                              missing; CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p95_e2el_ms/value                 -                              missing; CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p99_e2el_ms/value                 15200 ms                       CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
PASS     threshold  client.success_rate/value                1 ratio              >= 0      1 >= 0
PASS     threshold  client.failed/value                      0 requests           <= 1e+09  0 <= 1e+09
RECORD   threshold  client.best_of/value                     1 value                        no threshold
RECORD   threshold  client.num_prompts/value                 8 requests                     no threshold
RECORD   threshold  client.burstiness/value                  1 value                        no threshold
RECORD   threshold  client.max_concurrency/value             64 requests                    no threshold
RECORD   threshold  client.duration/value                    1.8 s                          no threshold
RECORD   threshold  client.completed/value                   8 requests                     no threshold
RECORD   threshold  client.total_input_tokens/value          57344 tokens                   no threshold
RECORD   threshold  client.total_output_tokens/value         8192 tokens                    no threshold
RECORD   threshold  client.request_throughput/value          4.4444444 req/s                no threshold
RECORD   threshold  client.std_ttft_ms/value                 30 ms                          no threshold
RECORD   threshold  client.std_tpot_ms/value                 0.5 ms                         no threshold
RECORD   threshold  client.std_itl_ms/value                  1.5 ms                         no threshold
RECORD   threshold  client.std_e2el_ms/value                 300 ms                         no threshold
RECORD   threshold  client.normalized_ttft_ms_per_tok/value  0.058663504 ms/tok             no threshold
RECORD   threshold  client.decode_throughput_p50/value       74.074074 tok/s                no threshold

41 verdicts: 10 pass, 0 fail, 30 record, 1 skipped
--- stderr
