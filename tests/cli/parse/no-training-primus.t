# The same with the primus parser (issue 14 item 6).
args: parse --input-format primus tests/fixtures/training/megatron-no-training.log
exit: 4
--- stdout
--- stderr
tests/fixtures/training/megatron-no-training.log: no metrics: the log has no iteration line (no-metrics)
