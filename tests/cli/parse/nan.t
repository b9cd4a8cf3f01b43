# NaN in any metric fails the run (exit 3); the rows of the finite values are printed
args: parse tests/fixtures/training/megatron-nan.log
exit: 3
--- stdout-grep
"metric":"lm_loss",.*"statistic":"last",.*"value":10\.4\}$
"metric":"tflops_per_gpu",.*"samples":4,.*"statistic":"steady_mean",.*"value":350\.0\}$
--- stderr
tests/fixtures/training/megatron-nan.log: lm loss is NAN at step 4 (line 4), and 1 more NaN/Inf value (workload-failed)
