# Skipped iterations (loss-scale overflow early in FP16 training) are a
# reported metric, not a failure (issue 15).
args: parse tests/fixtures/training/megatron-skipped-fp16.log
exit: 0
--- stdout-grep
"metric":"skipped_iterations".*"value":20\.0
--- stderr
