# CVS's Megatron dictionary fails any line naming torch.distributed.elastic.multiprocessing.errors
# (ROCm/cvs dddd914, megatron_lib.py, training_err_dict "torch"); assay's
# torch-elastic signature wants an error's name after it, so a warning that only
# names the module (a made-up line, tests/fixtures/training/megatron-torch-module.log)
# is not a failure. --as assay.
args: gate --as assay --log tests/fixtures/training/megatron-torch-module.log
exit: 0
--- stdout
status   gate  metric      value     spec                                                  message
PASS     run   completion  10 step   iteration N/N, torchrun marker or Megatron exit line  completed (iteration N/N, after training is done (line 26))
PASS     run   finite      0 values  no NaN or Inf                                         every value is finite
PASS     run   steps       10 steps  >= 1                                                  10 steps, the first 2 excluded as warm-up

3 verdicts: 3 pass, 0 fail, 0 record, 0 skipped
--- stderr
