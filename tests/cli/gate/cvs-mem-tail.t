# CVS's summary pattern "mem usages:" (ROCm/cvs dddd914, megatron_lib.py,
# TRAINING_RESULT_PATTERNS) also matches the ROCm fork's iteration lines: in a
# log without summary lines, its memory is the last iteration's among the last 15
# lines (cvs_tail, 0.6123), while TFLOP/s and ms fall back to the mean.
args: gate --thresholds tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single_threshold.json --combo MBS=4,GBS=128,PRECISION=FP8 --log tests/fixtures/training/megatron-rocm-no-summary.log
exit: 1
--- stdout
status   gate       metric                             value               spec                                                  message
PASS     run        completion                         6 step              iteration N/N, torchrun marker or Megatron exit line  completed (iteration N/N)
PASS     run        finite                             0 values            no NaN or Inf                                         every value is finite
PASS     run        steps                              6 steps             >= 1                                                  6 steps, the first 2 excluded as warm-up
PASS     threshold  tflops_per_gpu/cvs_mean            403.15 TFLOP/s/GPU  >= 100                                                403.15 >= 100
FAIL     threshold  elapsed_ms_per_iter/cvs_mean       830 ms              <= 500                                                830 > 500
FAIL     threshold  tokens_per_gpu/summary             -                   >= 1000                                               missing: no row has this metric
PASS     threshold  mem_usage_ratio/cvs_tail           0.6123 ratio        <= 0.85                                               0.6123 <= 0.85
RECORD   threshold  elapsed_ms_per_iter/steady_mean    812.5 ms                                                                  no threshold
RECORD   threshold  elapsed_ms_per_iter/steady_median  812.5 ms                                                                  no threshold
RECORD   threshold  tflops_per_gpu/steady_mean         403.15 TFLOP/s/GPU                                                        no threshold
RECORD   threshold  tflops_per_gpu/steady_median       403.15 TFLOP/s/GPU                                                        no threshold
RECORD   threshold  lm_loss/last                       9.8 nats                                                                  no threshold
RECORD   threshold  mem_usage_ratio/max                0.6123 ratio                                                              no threshold
RECORD   threshold  skipped_iterations/total           0 iterations                                                              no threshold
RECORD   threshold  nan_iterations/total               0 iterations                                                              no threshold

15 verdicts: 5 pass, 2 fail, 8 record, 0 skipped
--- stderr
