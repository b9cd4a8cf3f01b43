# Primus's --single mode runs python3 instead of torchrun and ends with
# "[direct] python3 finished successfully (code 0)" (AMD-AGI/Primus fd1eeab,
# runner/primus-cli-direct.sh: LOG_INFO "[direct] ${launcher} finished
# successfully (code 0)", launcher python3 when RUN_MODE is single): a complete
# run, like the torchrun marker. The log stops at step 9 of 10.
args: gate --log tests/fixtures/training/primus-single.log
exit: 0
--- stdout
status   gate  metric      value     spec                                                  message
PASS     run   completion  9 step    iteration N/N, torchrun marker or Megatron exit line  completed (torchrun marker)
PASS     run   finite      0 values  no NaN or Inf                                         every value is finite
PASS     run   steps       3 steps   >= 1                                                  3 steps, the first 2 excluded as warm-up

3 verdicts: 3 pass, 0 fail, 0 record, 0 skipped
--- stderr
