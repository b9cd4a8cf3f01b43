# CVS's values (ROCm/cvs dddd914, cvs/lib/training/megatron/megatron_lib.py,
# _parse_training_results): the summary lines in the log's last 15 lines, the
# last match. The unchanged llama-3.1-8b_single threshold file passes 4 of 4, as
# in CVS; assay's own steady mean (501.1 ms) and maximum memory (0.9) would fail,
# and tokens come only from the tokens/GPU/s summary line.
args: gate --thresholds tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single_threshold.json --combo MBS=4,GBS=128,PRECISION=FP8 --log tests/fixtures/training/megatron-rocm-summary.log
exit: 0
--- stdout
status   gate       metric                             value                 spec                                                  message
PASS     run        completion                         10 step               iteration N/N, torchrun marker or Megatron exit line  completed (iteration N/N, after training is done (line 15))
PASS     run        finite                             0 values              no NaN or Inf                                         every value is finite
PASS     run        steps                              10 steps              >= 1                                                  10 steps, the first 2 excluded as warm-up
PASS     threshold  tflops_per_gpu/summary             405.1 TFLOP/s/GPU     >= 100                                                405.1 >= 100
PASS     threshold  elapsed_ms_per_iter/summary        495.2 ms              <= 500                                                495.2 <= 500
PASS     threshold  tokens_per_gpu/summary             8271.4 tokens/s/GPU   >= 1000                                               8271.4 >= 1000
PASS     threshold  mem_usage_ratio/summary            0.8123 ratio          <= 0.85                                               0.8123 <= 0.85
RECORD   threshold  elapsed_ms_per_iter/steady_mean    505 ms                                                                      no threshold
RECORD   threshold  elapsed_ms_per_iter/steady_median  507.5 ms                                                                    no threshold
RECORD   threshold  tflops_per_gpu/steady_mean         382.3375 TFLOP/s/GPU                                                        no threshold
RECORD   threshold  tflops_per_gpu/steady_median       380.2 TFLOP/s/GPU                                                           no threshold
RECORD   threshold  lm_loss/last                       9.3 nats                                                                    no threshold
RECORD   threshold  mem_usage_ratio/max                0.9 ratio                                                                   no threshold
RECORD   threshold  skipped_iterations/total           0 iterations                                                                no threshold
RECORD   threshold  nan_iterations/total               0 iterations                                                                no threshold

15 verdicts: 7 pass, 0 fail, 8 record, 0 skipped
--- stderr
