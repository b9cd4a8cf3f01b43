# gate --log exits as 'assay parse' does for the log: 3 for a failed
# workload (53f999a exited 1 where parse exits 3)
args: gate --log tests/fixtures/training/megatron-nan-counter.log
exit: 3
--- stdout
status   gate  metric          value         spec                                                  message
PASS     run   completion      100 step      iteration N/N, torchrun marker or Megatron exit line  completed (iteration N/N)
PASS     run   finite          0 values      no NaN or Inf                                         every value is finite
FAIL     run   nan_iterations  5 iterations  0                                                     number of nan iterations is 5, the first at step 40 (line 4)
PASS     run   steps           10 steps      >= 1                                                  10 steps, the first 2 excluded as warm-up

4 verdicts: 3 pass, 1 fail, 0 record, 0 skipped
--- stderr
