# --as cvs: only what CVS's patterns read (ROCm/cvs dddd914, megatron_lib.py):
# Primus's "compute per GPU", "tokens per GPU (tokens/s/GPU)" and hip memory are
# not read (tokens and memory are missing, as in CVS), and every copy of a
# repeated step line counts (elapsed 2486.67 ms, CVS's own number).
args: gate --as cvs --thresholds tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single_threshold.json --combo MBS=4,GBS=128,PRECISION=FP8 --log tests/fixtures/training/primus-complete.log
exit: 1
--- stdout
status   gate       metric                             value                spec                                                  message
PASS     run        completion                         6 step               iteration N/N, torchrun marker or Megatron exit line  completed (iteration N/N and torchrun marker)
PASS     run        finite                             0 values             no NaN or Inf                                         every value is finite
PASS     run        steps                              6 steps              >= 1                                                  6 steps, the first 2 excluded as warm-up
PASS     threshold  tflops_per_gpu/cvs_mean            386.75 TFLOP/s/GPU   >= 100                                                386.75 >= 100
FAIL     threshold  elapsed_ms_per_iter/cvs_mean       2486.6667 ms         <= 500                                                2486.67 > 500
FAIL     threshold  tokens_per_gpu/summary             -                    >= 1000                                               missing: no row has this metric
FAIL     threshold  mem_usage_ratio/summary            -                    <= 0.85                                               missing: no row has this metric
RECORD   threshold  elapsed_ms_per_iter/steady_mean    585 ms                                                                     no threshold
RECORD   threshold  elapsed_ms_per_iter/steady_median  585 ms                                                                     no threshold
RECORD   threshold  elapsed_ms_per_iter/running_avg    585.2 ms                                                                   no threshold
RECORD   threshold  tflops_per_gpu/steady_mean         508.75 TFLOP/s/GPU                                                         no threshold
RECORD   threshold  tflops_per_gpu/steady_median       507.5 TFLOP/s/GPU                                                          no threshold
RECORD   threshold  tflops_per_gpu/running_avg         509 TFLOP/s/GPU                                                            no threshold
RECORD   threshold  tokens_per_gpu/steady_mean         7150 tokens/s/GPU                                                          no threshold
RECORD   threshold  tokens_per_gpu/steady_median       7150 tokens/s/GPU                                                          no threshold
RECORD   threshold  tokens_per_gpu/running_avg         7139.3 tokens/s/GPU                                                        no threshold
RECORD   threshold  lm_loss/last                       10.1 nats                                                                  no threshold
RECORD   threshold  mem_usage_ratio/max                0.5933 ratio                                                               no threshold
RECORD   threshold  mem_used_gb/max                    170.86 GB                                                                  no threshold
RECORD   threshold  rocm_mem_usage_ratio/max           0.598 ratio                                                                no threshold
RECORD   threshold  rocm_mem_used_gb/max               172.22 GB                                                                  no threshold
RECORD   threshold  mem_max_allocated_mb/max           121964.93 MB                                                               no threshold
RECORD   threshold  mem_max_reserved_mb/max            159578 MB                                                                  no threshold
RECORD   threshold  skipped_iterations/total           0 iterations                                                               no threshold
RECORD   threshold  nan_iterations/total               0 iterations                                                               no threshold

25 verdicts: 4 pass, 3 fail, 18 record, 0 skipped
--- stderr
