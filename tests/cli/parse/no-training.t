# A log without a single training line is no-metrics (exit 4), not an
# incomplete run (issue 14 item 6). 53f999a exited 3.
args: parse --input-format megatron tests/fixtures/training/megatron-no-training.log
exit: 4
--- stdout
--- stderr
tests/fixtures/training/megatron-no-training.log: no metrics: the log has no iteration line (no-metrics)
