# MaxText (ROCm/cvs dddd914, cvs/lib/training/jaxmaxtext/utils/maxtext_parsing.py): the FP8 cell's run ran out of memory after step 17: RESOURCE_EXHAUSTED
# is in CVS's MaxText dictionary (jaxmaxtext_training_lib.py, _TRAINING_ERR_PATTERNS, re.I), the run
# never logged "completed step: 29", and its throughput is under the minimums. Exit 3.
args: gate --thresholds tests/fixtures/gate/cvs/mi355x_jaxmaxtext_llama-3.1-8b_distributed_threshold.json --combo NNODES=2,STEPS=30,PRECISION=FP8,BATCH=6,GBS=384,SEQLEN=8192 tests/fixtures/training/maxtext-llama3.1-8b-fp8-oom.log
exit: 3
--- stdout
status   gate       metric                      value                   spec                message
FAIL     run        completion                  17 step                 completed step: 29  incomplete (last step 17)
PASS     run        nonfinite/total             0                       0                   none: lines with TFLOP/s/device: or Tokens/s/device: NaN or Inf
FAIL     run        errors                      1 lines                 no error pattern    resource (cvs maxtext) at line 32: E1120 10:03:10.000000 140233 pjit.py:1201] jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 1073741824 bytes.
FAIL     threshold  tflops_per_sec_per_gpu/cvs  512.7164 TFLOP/s/GPU    >= 550              512.716 < 550
FAIL     threshold  tokens_per_sec_per_gpu/cvs  15121.284 tokens/s/GPU  >= 18000            15121.3 < 18000
RECORD   threshold  tokens_per_sec_total/cvs    241940.54 tokens/s      info                info: recorded
SKIPPED  threshold  scaling_efficiency/*        -                       info                missing (optional)
RECORD   threshold  step_time_seconds/cvs       3.011 s                 info                info: recorded
RECORD   threshold  step_time_mean_ms/cvs       5136.7222 ms            info                info: recorded
RECORD   threshold  step_time_p50_ms/cvs        3011 ms                 info                info: recorded
RECORD   threshold  step_time_p95_ms/cvs        8767.25 ms              info                info: recorded
PASS     threshold  final_loss/cvs              8.386 nats              <= 15               8.386 <= 15
PASS     threshold  loss_decreased/cvs          1 bool                  >= 1                1 >= 1
SKIPPED  threshold  eval_loss/cvs               -                       info                missing (optional)
SKIPPED  threshold  steps_to_target/*           -                       info                missing (optional)
SKIPPED  threshold  time_to_target/*            -                       info                missing (optional)
RECORD   threshold  steps/max                   17 steps                                    no threshold
RECORD   threshold  steps/config                30 steps                                    no threshold
RECORD   threshold  nonfinite/total             0 lines                                     no threshold

19 verdicts: 3 pass, 4 fail, 8 record, 4 skipped
--- stderr
