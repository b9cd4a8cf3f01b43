# ATOM's tier rules (ROCm/cvs dddd914 tests/inference/atom/atom.py,
# test_cell_metrics): a tier with no spec in the cell fails (health), a
# tier judges only the specs it has (throughput: output_tput_per_gpu);
# scaling is skipped on one node.
args: gate --thresholds tests/fixtures/inference/atom-no-health_threshold.json --combo ISL=7168,OSL=1024,TP=8,CONC=64 --series tp=8 tests/fixtures/inference/atom-gpt-oss-120b-pass.json
exit: 1
--- stdout
status   gate       metric                                   value                spec     message
FAIL     threshold  tier/health                              -                    a spec   no threshold specs for tier health in cell ISL=7168,OSL=1024,TP=8,CONC=64
SKIPPED  threshold  tier/scaling                             -                             scaling tier not configured for single-node runs
PASS     threshold  client.output_tput_per_gpu/value         568.88889 tok/s/GPU  >= 525   568.889 >= 525
PASS     threshold  client.p99_ttft_ms/value                 510 ms               <= 1000  510 <= 1000
PASS     threshold  client.mean_tpot_ms/value                13.75 ms             <= 15    13.75 <= 15
RECORD   threshold  client.best_of/value                     1 value                       no threshold
RECORD   threshold  client.num_prompts/value                 8 requests                    no threshold
RECORD   threshold  client.burstiness/value                  1 value                       no threshold
RECORD   threshold  client.max_concurrency/value             64 requests                   no threshold
RECORD   threshold  client.duration/value                    1.8 s                         no threshold
RECORD   threshold  client.completed/value                   8 requests                    no threshold
RECORD   threshold  client.total_input_tokens/value          57344 tokens                  no threshold
RECORD   threshold  client.total_output_tokens/value         8192 tokens                   no threshold
RECORD   threshold  client.request_throughput/value          4.4444444 req/s               no threshold
RECORD   threshold  client.output_throughput/value           4551.1111 tok/s               no threshold
RECORD   threshold  client.total_token_throughput/value      36408.889 tok/s               no threshold
RECORD   threshold  client.mean_ttft_ms/value                420.5 ms                      no threshold
RECORD   threshold  client.median_ttft_ms/value              410 ms                        no threshold
RECORD   threshold  client.std_ttft_ms/value                 30 ms                         no threshold
RECORD   threshold  client.median_tpot_ms/value              13.5 ms                       no threshold
RECORD   threshold  client.std_tpot_ms/value                 0.5 ms                        no threshold
RECORD   threshold  client.p99_tpot_ms/value                 15.5 ms                       no threshold
RECORD   threshold  client.mean_itl_ms/value                 13.75 ms                      no threshold
RECORD   threshold  client.median_itl_ms/value               13 ms                         no threshold
RECORD   threshold  client.std_itl_ms/value                  1.5 ms                        no threshold
RECORD   threshold  client.p99_itl_ms/value                  18 ms                         no threshold
RECORD   threshold  client.mean_e2el_ms/value                14500 ms                      no threshold
RECORD   threshold  client.median_e2el_ms/value              14400 ms                      no threshold
RECORD   threshold  client.std_e2el_ms/value                 300 ms                        no threshold
RECORD   threshold  client.p99_e2el_ms/value                 15200 ms                      no threshold
RECORD   threshold  client.failed/value                      0 requests                    no threshold
RECORD   threshold  client.per_gpu_throughput/value          4551.1111 tok/s/GPU           no threshold
RECORD   threshold  client.normalized_ttft_ms_per_tok/value  0.058663504 ms/tok            no threshold
RECORD   threshold  client.decode_throughput_p50/value       74.074074 tok/s               no threshold
RECORD   threshold  client.success_rate/value                1 ratio                       no threshold

35 verdicts: 3 pass, 1 fail, 30 record, 1 skipped
--- stderr
