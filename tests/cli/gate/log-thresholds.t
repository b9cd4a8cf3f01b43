# --log gives rows for --thresholds too
args: gate --thresholds tests/data/gate/thresholds.json --combo MBS=1,GBS=8,PRECISION=BF16 --log tests/data/training/primus-complete.log
exit: 1
--- stdout
status   gate       metric                             value                spec                              message
PASS     run        completion                         6 step               iteration N/N or torchrun marker  completed (iteration N/N and torchrun marker)
PASS     run        finite                             0 values             no NaN or Inf                     every value is finite
PASS     run        steps                              6 steps              >= 1                              6 steps, the first 2 excluded as warm-up
FAIL     threshold  tflops_per_gpu/steady_mean         508.75 TFLOP/s/GPU   >= 520                            508.75 < 520
PASS     threshold  tokens_per_gpu/running_avg         7139.3 tokens/s/GPU  >= 7000                           7139.3 >= 7000
FAIL     threshold  lm_loss/last                       10.1 nats            <= 10                             10.1 > 10
FAIL     threshold  checkpoint_save_ms/max             -                    <= 30000                          missing: no row has this metric
RECORD   threshold  elapsed_ms_per_iter/steady_mean    585 ms                                                 no threshold
RECORD   threshold  elapsed_ms_per_iter/steady_median  585 ms                                                 no threshold
RECORD   threshold  elapsed_ms_per_iter/running_avg    585.2 ms                                               no threshold
RECORD   threshold  tflops_per_gpu/steady_median       507.5 TFLOP/s/GPU                                      no threshold
RECORD   threshold  tflops_per_gpu/running_avg         509 TFLOP/s/GPU                                        no threshold
RECORD   threshold  tokens_per_gpu/steady_mean         7150 tokens/s/GPU                                      no threshold
RECORD   threshold  tokens_per_gpu/steady_median       7150 tokens/s/GPU                                      no threshold
RECORD   threshold  mem_usage_ratio/max                0.5933 ratio                                           no threshold
RECORD   threshold  mem_used_gb/max                    170.86 GB                                              no threshold
RECORD   threshold  rocm_mem_usage_ratio/max           0.598 ratio                                            no threshold
RECORD   threshold  rocm_mem_used_gb/max               172.22 GB                                              no threshold
RECORD   threshold  mem_max_allocated_mb/max           121964.93 MB                                           no threshold
RECORD   threshold  mem_max_reserved_mb/max            159578 MB                                              no threshold
RECORD   threshold  skipped_iterations/total           0 iterations                                           no threshold
RECORD   threshold  nan_iterations/total               0 iterations                                           no threshold

22 verdicts: 4 pass, 3 fail, 15 record, 0 skipped
--- stderr
