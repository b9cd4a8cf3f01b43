# gate --log on a log without steps: 4, as 'assay parse' (issue 15, 14 item 6)
args: gate --log tests/fixtures/training/megatron-no-training.log
exit: 4
--- stdout
status   gate  metric  value     spec           message
PASS     run   finite  0 values  no NaN or Inf  every value is finite
FAIL     run   steps   0 steps   >= 1           no metrics: the log has no iteration line

2 verdicts: 1 pass, 1 fail, 0 record, 0 skipped
--- stderr
