# NaN in the log fails the run-health gate
args: gate --log tests/fixtures/training/megatron-nan.log
exit: 3
--- stdout
status   gate  metric      value     spec                                                  message
PASS     run   completion  6 step    iteration N/N, torchrun marker or Megatron exit line  completed (iteration N/N)
FAIL     run   finite      2 values  no NaN or Inf                                         lm loss is NAN at step 4 (line 4); 2 NaN/Inf values in all
PASS     run   steps       6 steps   >= 1                                                  6 steps, the first 2 excluded as warm-up

3 verdicts: 2 pass, 1 fail, 0 record, 0 skipped
--- stderr
