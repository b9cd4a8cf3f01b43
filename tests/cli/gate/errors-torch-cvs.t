# CVS's Megatron dictionary fails any line naming torch.distributed.elastic.multiprocessing.errors
# (ROCm/cvs dddd914, megatron_lib.py, training_err_dict "torch"); assay's
# torch-elastic signature wants an error's name after it, so a warning that only
# names the module (a made-up line, tests/fixtures/training/megatron-torch-module.log)
# is not a failure. --as cvs.
args: gate --as cvs --log tests/fixtures/training/megatron-torch-module.log
exit: 3
--- stdout
status   gate  metric      value     spec                                                  message
PASS     run   completion  10 step   iteration N/N, torchrun marker or Megatron exit line  completed (iteration N/N, after training is done (line 26))
PASS     run   finite      0 values  no NaN or Inf                                         every value is finite
PASS     run   steps       10 steps  >= 1                                                  10 steps, the first 2 excluded as warm-up
FAIL     run   errors      1 lines   no error pattern                                      torch (cvs megatron) at line 2: /usr/lib/python3/dist-packages/torch/distributed/run.py:792: UserWarning: torch.distributed.elastic.multiprocessing.errors.record is deprecated here; import it from torch.distributed.elastic.multiproc

4 verdicts: 3 pass, 1 fail, 0 record, 0 skipped
--- stderr
