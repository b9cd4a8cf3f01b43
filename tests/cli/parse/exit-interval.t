# A run stopped by --exit-interval ("exiting program at iteration N") is
# complete, and "using world size: N" derives tokens (issue 15). 53f999a
# exited 3 and derived nothing without --world-size.
args: parse --seq-len 4096 tests/fixtures/training/megatron-exit-interval.log
exit: 0
--- stdout-grep
"metric":"tokens_per_gpu".*"statistic":"steady_mean".*"value":65536\.0
--- stderr
