# assay's signatures flag "NCCL ERROR", which CVS's Megatron dictionary fails (ROCm/cvs dddd914, megatron_lib.py, training_err_dict): exit 3
args: gate --log tests/fixtures/training/megatron-nccl-error-caps.log
exit: 3
--- stdout
status   gate  metric      value     spec                                                  message
PASS     run   completion  10 step   iteration N/N, torchrun marker or Megatron exit line  completed (iteration N/N, after training is done (line 26))
PASS     run   finite      0 values  no NaN or Inf                                         every value is finite
FAIL     run   errors      1 lines   no error signature                                    nccl-error (nccl) at line 18: [rank5]: NCCL ERROR: unhandled system error (run with NCCL_DEBUG=INFO for details)
PASS     run   steps       10 steps  >= 1                                                  10 steps, the first 2 excluded as warm-up

4 verdicts: 3 pass, 1 fail, 0 record, 0 skipped
--- stderr
