# CVS's distributed threshold file, unchanged: every metric is judged and
# training.scaling_efficiency_pct, which one log cannot give, fails alone
# ("missing"), as in CVS with scaling_baseline 0.0 (never exit 2).
args: gate --thresholds tests/fixtures/gate/cvs/mi325x_megatron_llama-3.3-70b_distributed_threshold.json --combo MBS=1,GBS=64,PRECISION=BF16 --log tests/fixtures/training/megatron-rocm-summary.log
exit: 1
--- stdout
status   gate       metric                             value                 spec                                                  message
PASS     run        completion                         10 step               iteration N/N, torchrun marker or Megatron exit line  completed (iteration N/N, after training is done (line 15))
PASS     run        finite                             0 values              no NaN or Inf                                         every value is finite
PASS     run        steps                              10 steps              >= 1                                                  10 steps, the first 2 excluded as warm-up
PASS     threshold  tflops_per_gpu/summary             405.1 TFLOP/s/GPU     >= 100                                                405.1 >= 100
PASS     threshold  elapsed_ms_per_iter/summary        495.2 ms              <= 500                                                495.2 <= 500
PASS     threshold  tokens_per_gpu/summary             8271.4 tokens/s/GPU   >= 1000                                               8271.4 >= 1000
PASS     threshold  mem_usage_ratio/summary            0.8123 ratio          <= 0.85                                               0.8123 <= 0.85
FAIL     threshold  scaling_efficiency/*               -                     >= 85                                                 missing: no row has this metric
RECORD   threshold  elapsed_ms_per_iter/steady_mean    505 ms                                                                      no threshold
RECORD   threshold  elapsed_ms_per_iter/steady_median  507.5 ms                                                                    no threshold
RECORD   threshold  tflops_per_gpu/steady_mean         382.3375 TFLOP/s/GPU                                                        no threshold
RECORD   threshold  tflops_per_gpu/steady_median       380.2 TFLOP/s/GPU                                                           no threshold
RECORD   threshold  lm_loss/last                       9.3 nats                                                                    no threshold
RECORD   threshold  mem_usage_ratio/max                0.9 ratio                                                                   no threshold
RECORD   threshold  skipped_iterations/total           0 iterations                                                                no threshold
RECORD   threshold  nan_iterations/total               0 iterations                                                                no threshold

16 verdicts: 7 pass, 1 fail, 8 record, 0 skipped
--- stderr
