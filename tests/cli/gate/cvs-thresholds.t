# An unchanged ROCm/cvs threshold file, detected from its content, gates a
# training log (exit 1: 2868 ms > max 500 ms); --warmup 1 is CVS's warm-up
args: gate --warmup 1 --thresholds tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single_threshold.json --combo MBS=4,GBS=128,PRECISION=FP8 --log tests/fixtures/training/primus-complete.log
exit: 1
--- stdout
status   gate       metric                             value                spec                                                  message
PASS     run        completion                         6 step               iteration N/N, torchrun marker or Megatron exit line  completed (iteration N/N and torchrun marker)
PASS     run        finite                             0 values             no NaN or Inf                                         every value is finite
PASS     run        steps                              6 steps              >= 1                                                  6 steps, the first 1 excluded as warm-up
PASS     threshold  tflops_per_gpu/cvs_mean            411.4 TFLOP/s/GPU    >= 100                                                411.4 >= 100
FAIL     threshold  elapsed_ms_per_iter/cvs_mean       2868 ms              <= 500                                                2868 > 500
PASS     threshold  tokens_per_gpu/cvs_mean            7200 tokens/s/GPU    >= 1000                                               7200 >= 1000
PASS     threshold  mem_usage_ratio/cvs_mean           0.5933 ratio         <= 0.85                                               0.5933 <= 0.85
RECORD   threshold  elapsed_ms_per_iter/steady_mean    2868 ms                                                                    no threshold
RECORD   threshold  elapsed_ms_per_iter/steady_median  590 ms                                                                     no threshold
RECORD   threshold  elapsed_ms_per_iter/running_avg    585.2 ms                                                                   no threshold
RECORD   threshold  tflops_per_gpu/steady_mean         411.4 TFLOP/s/GPU                                                          no threshold
RECORD   threshold  tflops_per_gpu/steady_median       505 TFLOP/s/GPU                                                            no threshold
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

25 verdicts: 6 pass, 1 fail, 18 record, 0 skipped
--- stderr
