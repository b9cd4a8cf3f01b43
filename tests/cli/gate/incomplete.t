# An incomplete run fails the run-health gate
args: gate --log tests/fixtures/training/megatron-incomplete.log
exit: 3
--- stdout
status   gate  metric      value     spec                                                  message
FAIL     run   completion  6 step    iteration N/N, torchrun marker or Megatron exit line  incomplete run: no final "iteration N/N" line, no torchrun marker and no Megatron exit line
PASS     run   finite      0 values  no NaN or Inf                                         every value is finite
FAIL     run   errors      1 lines   no error signature                                    python-traceback (python) at line 7: Traceback (most recent call last):
FAIL     run   errors      1 lines   no error signature                                    cuda-oom (oom) at line 9: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB
PASS     run   steps       6 steps   >= 1                                                  6 steps, the first 2 excluded as warm-up

5 verdicts: 2 pass, 3 fail, 0 record, 0 skipped
--- stderr
