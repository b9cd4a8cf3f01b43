# Every threshold kind CVS knows (ROCm/cvs dddd914, cvs/lib/utils/verdict.py,
# _check_one), cell PRECISION=BF16: min, max, max_ms, min_tok_s, within with
# tolerance_pct, min_ratio with reference (value / the reference's value; FAIL
# when the reference is missing), info (recorded when present, FAIL when missing).
args: gate --thresholds tests/fixtures/gate/cvs-kinds_threshold.json --combo MBS=4,GBS=128,PRECISION=BF16 --log tests/fixtures/training/megatron-rocm-summary.log
exit: 1
--- stdout
status   gate       metric                             value                 spec                                                  message
PASS     run        completion                         10 step               iteration N/N, torchrun marker or Megatron exit line  completed (iteration N/N, after training is done (line 15))
PASS     run        finite                             0 values              no NaN or Inf                                         every value is finite
PASS     run        steps                              10 steps              >= 1                                                  10 steps, the first 2 excluded as warm-up
FAIL     threshold  tflops_per_gpu/summary             405.1 TFLOP/s/GPU     >= 410                                                405.1 < 410
PASS     threshold  elapsed_ms_per_iter/summary        495.2 ms              <= 500                                                495.2 <= 500
FAIL     threshold  tokens_per_gpu/summary             8271.4 tokens/s/GPU   >= 1 x scaling_efficiency                             reference metric scaling_efficiency missing
RECORD   threshold  mem_usage_ratio/summary            0.8123 ratio          info                                                  info: recorded
RECORD   threshold  elapsed_ms_per_iter/steady_mean    505 ms                                                                      no threshold
RECORD   threshold  elapsed_ms_per_iter/steady_median  507.5 ms                                                                    no threshold
RECORD   threshold  tflops_per_gpu/steady_mean         382.3375 TFLOP/s/GPU                                                        no threshold
RECORD   threshold  tflops_per_gpu/steady_median       380.2 TFLOP/s/GPU                                                           no threshold
RECORD   threshold  lm_loss/last                       9.3 nats                                                                    no threshold
RECORD   threshold  mem_usage_ratio/max                0.9 ratio                                                                   no threshold
RECORD   threshold  skipped_iterations/total           0 iterations                                                                no threshold
RECORD   threshold  nan_iterations/total               0 iterations                                                                no threshold

15 verdicts: 4 pass, 2 fail, 9 record, 0 skipped
--- stderr
