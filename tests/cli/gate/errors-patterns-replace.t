# A config's training.error_patterns replaces CVS's defaults entirely (ROCm/cvs dddd914, jaxmaxtext_training_lib.py): "GPU Reset" no longer fails
args: gate --as cvs --error-patterns tests/fixtures/gate/cvs-error-patterns.json --log tests/fixtures/training/megatron-gpu-reset.log
exit: 0
--- stdout
status   gate  metric      value     spec                                                  message
PASS     run   completion  10 step   iteration N/N, torchrun marker or Megatron exit line  completed (iteration N/N, after training is done (line 26))
PASS     run   finite      0 values  no NaN or Inf                                         every value is finite
PASS     run   steps       10 steps  >= 1                                                  10 steps, the first 2 excluded as warm-up

3 verdicts: 3 pass, 0 fail, 0 record, 0 skipped
--- stderr
