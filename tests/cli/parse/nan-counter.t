# Megatron-LM counts NaN steps ("number of nan iterations") and leaves lm loss
# out; a non-zero count fails the run (issue 15). 53f999a exited 0.
args: parse tests/fixtures/training/megatron-nan-counter.log
exit: 3
--- stdout-grep
"metric":"nan_iterations".*"value":5\.0
--- stderr
tests/fixtures/training/megatron-nan-counter.log: number of nan iterations is 5 over the log, the first at step 40 (line 4) (workload-failed)
