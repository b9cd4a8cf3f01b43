# --as cvs: CVS's Megatron dictionary (ROCm/cvs dddd914, megatron_lib.py, training_err_dict, searched case-sensitively) instead of assay's signatures
args: gate --as cvs --log tests/fixtures/training/megatron-gpu-reset.log
exit: 3
--- stdout
status   gate  metric      value     spec                                                  message
PASS     run   completion  10 step   iteration N/N, torchrun marker or Megatron exit line  completed (iteration N/N, after training is done (line 26))
PASS     run   finite      0 values  no NaN or Inf                                         every value is finite
PASS     run   steps       10 steps  >= 1                                                  10 steps, the first 2 excluded as warm-up
FAIL     run   errors      1 lines   no error pattern                                      GPU HW ERROR (cvs megatron) at line 18: [rank3]: GPU Reset detected on device 3, the job continues

4 verdicts: 3 pass, 1 fail, 0 record, 0 skipped
--- stderr
