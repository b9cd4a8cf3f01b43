# The same log with 15 more lines after its summary lines: they are not in the
# last 15 lines CVS reads, so its fallback applies (ROCm/cvs dddd914,
# megatron_lib.py, _parse_mean_from_iterations): the mean of the per-iteration
# matches without the first. CVS's per-iteration patterns for tokens and memory
# match the summary lines too ("tokens/GPU/s:", "mem usages:"), so they count.
# Elapsed time fails at 501.1 ms, as in CVS.
args: gate --thresholds tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single_threshold.json --combo MBS=4,GBS=128,PRECISION=FP8 --log tests/fixtures/training/megatron-rocm-summary-early.log
exit: 1
--- stdout
status   gate       metric                             value                 spec                                                  message
PASS     run        completion                         10 step               iteration N/N, torchrun marker or Megatron exit line  completed (iteration N/N, after training is done (line 15))
PASS     run        finite                             0 values              no NaN or Inf                                         every value is finite
PASS     run        steps                              10 steps              >= 1                                                  10 steps, the first 2 excluded as warm-up
PASS     threshold  tflops_per_gpu/cvs_mean            382.3375 TFLOP/s/GPU  >= 100                                                382.338 >= 100
FAIL     threshold  elapsed_ms_per_iter/cvs_mean       501.11111 ms          <= 500                                                501.111 > 500
PASS     threshold  tokens_per_gpu/cvs_mean            8271.4 tokens/s/GPU   >= 1000                                               8271.4 >= 1000
PASS     threshold  mem_usage_ratio/cvs_mean           0.82293 ratio         <= 0.85                                               0.82293 <= 0.85
RECORD   threshold  elapsed_ms_per_iter/steady_mean    505 ms                                                                      no threshold
RECORD   threshold  elapsed_ms_per_iter/steady_median  507.5 ms                                                                    no threshold
RECORD   threshold  tflops_per_gpu/steady_mean         382.3375 TFLOP/s/GPU                                                        no threshold
RECORD   threshold  tflops_per_gpu/steady_median       380.2 TFLOP/s/GPU                                                           no threshold
RECORD   threshold  lm_loss/last                       9.3 nats                                                                    no threshold
RECORD   threshold  mem_usage_ratio/max                0.9 ratio                                                                   no threshold
RECORD   threshold  skipped_iterations/total           0 iterations                                                                no threshold
RECORD   threshold  nan_iterations/total               0 iterations                                                                no threshold

15 verdicts: 6 pass, 1 fail, 8 record, 0 skipped
--- stderr
