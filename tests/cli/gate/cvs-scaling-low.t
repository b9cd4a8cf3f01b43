# Scaling efficiency below CVS's 85 %: 333.36 / 403.2 = 82.68 % (the N-node
# run's CVS value is its fallback mean, the 1-node run's its summary line).
args: gate --thresholds tests/fixtures/gate/cvs/mi325x_megatron_llama-3.3-70b_distributed_threshold.json --combo MBS=1,GBS=64,PRECISION=BF16 --log tests/fixtures/training/megatron-basic.log --single-log tests/fixtures/training/megatron-rocm.log
exit: 1
--- stdout
status   gate       metric                             value                  spec                                                  message
PASS     run        completion                         10 step                iteration N/N, torchrun marker or Megatron exit line  completed (iteration N/N, after training is done (line 25))
PASS     run        finite                             0 values               no NaN or Inf                                         every value is finite
PASS     run        steps                              10 steps               >= 1                                                  10 steps, the first 2 excluded as warm-up
PASS     threshold  tflops_per_gpu/cvs_mean            333.35556 TFLOP/s/GPU  >= 100                                                333.356 >= 100
FAIL     threshold  elapsed_ms_per_iter/cvs_mean       1222.2222 ms           <= 500                                                1222.22 > 500
FAIL     threshold  tokens_per_gpu/summary             -                      >= 1000                                               missing: no row has this metric
FAIL     threshold  mem_usage_ratio/summary            -                      <= 0.85                                               missing: no row has this metric
FAIL     threshold  scaling_efficiency/cvs             82.677469 %            >= 85                                                 82.6775 < 85
RECORD   threshold  elapsed_ms_per_iter/steady_mean    1000 ms                                                                      no threshold
RECORD   threshold  elapsed_ms_per_iter/steady_median  1000 ms                                                                      no threshold
RECORD   threshold  tflops_per_gpu/steady_mean         360.025 TFLOP/s/GPU                                                          no threshold
RECORD   threshold  tflops_per_gpu/steady_median       360 TFLOP/s/GPU                                                              no threshold
RECORD   threshold  lm_loss/last                       8.6 nats                                                                     no threshold
RECORD   threshold  eval_lm_loss/last                  8.69 nats                                                                    no threshold
RECORD   threshold  mem_max_allocated_mb/max           10300.75 MB                                                                  no threshold
RECORD   threshold  mem_max_reserved_mb/max            12288 MB                                                                     no threshold
RECORD   threshold  skipped_iterations/total           0 iterations                                                                 no threshold
RECORD   threshold  nan_iterations/total               0 iterations                                                                 no threshold

18 verdicts: 4 pass, 4 fail, 10 record, 0 skipped
--- stderr
