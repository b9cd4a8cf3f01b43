# CVS's ATOM multinode file (vllm_atom driver: a vllm bench serve result,
# read with ATOM's rules) with the config's scaling baseline (1500 tok/s):
# scaling.efficiency_pct = 2560 / (1500 x 2 nodes) x 100.
args: gate --thresholds tests/fixtures/inference/cvs/mi300x_atom_deepseek-r1_fp8_distributed_threshold.json --combo ISL=1024,OSL=1024,TP=8,PP=2,NNODES=2,CONC=64 --series scaling_baseline_output_throughput=1500 tests/fixtures/inference/vllm-r1-pp2-c64.json
exit: 0
--- stdout
status   gate       metric                                   value              spec      message
PASS     threshold  client.total_token_throughput/value      5120 tok/s         >= 2403   5120 >= 2403
PASS     threshold  client.output_throughput/value           2560 tok/s         >= 1194   2560 >= 1194
PASS     threshold  client.per_gpu_throughput/value          640 tok/s/GPU      >= 300    640 >= 300
PASS     threshold  client.output_tput_per_gpu/value         320 tok/s/GPU      >= 149    320 >= 149
PASS     threshold  client.mean_ttft_ms/value                410 ms             <= 1e+06  410 <= 1e+06
RECORD   threshold  client.median_ttft_ms/value              395.5 ms                     CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p90_ttft_ms/value                 -                            missing; CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p95_ttft_ms/value                 510.5 ms                     CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
PASS     threshold  client.p99_ttft_ms/value                 640 ms             <= 1e+06  640 <= 1e+06
PASS     threshold  client.mean_tpot_ms/value                12.5 ms            <= 1e+06  12.5 <= 1e+06
RECORD   threshold  client.median_tpot_ms/value              12 ms                        CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p90_tpot_ms/value                 -                            missing; CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p95_tpot_ms/value                 14 ms                        CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
PASS     threshold  client.p99_tpot_ms/value                 16 ms              <= 1e+06  16 <= 1e+06
RECORD   threshold  client.mean_itl_ms/value                 12.5 ms                      CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.median_itl_ms/value               11.5 ms                      CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p95_itl_ms/value                  15.5 ms                      CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p99_itl_ms/value                  19 ms                        CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.mean_e2el_ms/value                13200 ms                     CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.median_e2el_ms/value              13100 ms                     CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p90_e2el_ms/value                 -                            missing; CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p95_e2el_ms/value                 13800 ms                     CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
RECORD   threshold  client.p99_e2el_ms/value                 14500 ms                     CVS's ATOM suite records it without judging it (atom_parsing.py: not in a gated tier)
PASS     threshold  client.success_rate/value                1 ratio            >= 1      1 >= 1
PASS     threshold  client.failed/value                      0 requests         <= 0      0 <= 0
PASS     threshold  scaling.efficiency_pct/value             85.333333 %        >= 39     85.3333 >= 39
RECORD   threshold  client.num_prompts/value                 1000 requests                no threshold
RECORD   threshold  client.burstiness/value                  1 value                      no threshold
RECORD   threshold  client.max_concurrency/value             64 requests                  no threshold
RECORD   threshold  client.duration/value                    400 s                        no threshold
RECORD   threshold  client.completed/value                   1000 requests                no threshold
RECORD   threshold  client.total_input_tokens/value          1024000 tokens               no threshold
RECORD   threshold  client.total_output_tokens/value         1024000 tokens               no threshold
RECORD   threshold  client.request_throughput/value          2.5 req/s                    no threshold
RECORD   threshold  client.max_output_tokens_per_s/value     2112 tok/s                   no threshold
RECORD   threshold  client.max_concurrent_requests/value     64 requests                  no threshold
RECORD   threshold  client.std_ttft_ms/value                 60 ms                        no threshold
RECORD   threshold  client.std_tpot_ms/value                 1 ms                         no threshold
RECORD   threshold  client.std_itl_ms/value                  2 ms                         no threshold
RECORD   threshold  client.std_e2el_ms/value                 350 ms                       no threshold
RECORD   threshold  client.normalized_ttft_ms_per_tok/value  0.40039062 ms/tok            no threshold
RECORD   threshold  client.decode_throughput_p50/value       83.333333 tok/s              no threshold

42 verdicts: 11 pass, 0 fail, 31 record, 0 skipped
--- stderr
