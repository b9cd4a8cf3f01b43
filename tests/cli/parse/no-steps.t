# A log without iteration lines has no metrics (exit 4)
args: parse tests/fixtures/training/primus-no-steps.log
exit: 4
--- stdout
--- stderr
tests/fixtures/training/primus-no-steps.log: no metrics: the log has no iteration line (no-metrics)
