# An incomplete run fails the run-health gate
args: gate --log tests/data/training/megatron-incomplete.log
exit: 1
--- stdout
status   gate  metric      value     spec                              message
FAIL     run   completion  6 step    iteration N/N or torchrun marker  incomplete run: no final "iteration N/N" line and no torchrun marker
PASS     run   finite      0 values  no NaN or Inf                     every value is finite
PASS     run   steps       6 steps   >= 1                              6 steps, the first 2 excluded as warm-up

3 verdicts: 2 pass, 1 fail, 0 record, 0 skipped
--- stderr
