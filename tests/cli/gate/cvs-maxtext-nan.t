# MaxText (ROCm/cvs dddd914, jaxmaxtext_training_lib.py, _NAN_INF_RE with re.I): "TFLOP/s/device: nan"
# fails the run (exit 3); the single-node cell's STEPS=30 is not reached either.
args: gate --thresholds tests/fixtures/gate/cvs/mi300x_jaxmaxtext_llama-3.3-70b_single_threshold.json --combo NNODES=1,STEPS=30,PRECISION=BF16,BATCH=5,GBS=40,SEQLEN=8192 tests/fixtures/training/maxtext-nan.log
exit: 3
--- stdout
status   gate       metric                      value              spec                message
FAIL     run        completion                  1 step             completed step: 29  incomplete (last step 1)
FAIL     run        nonfinite/total             1                  0                   lines with TFLOP/s/device: or Tokens/s/device: NaN or Inf: CVS's MaxText test fails the run
FAIL     threshold  tflops_per_sec_per_gpu/cvs  20 TFLOP/s/GPU     >= 260              20 < 260
PASS     threshold  tokens_per_sec_per_gpu/cvs  6300 tokens/s/GPU  >= 962              6300 >= 962
RECORD   threshold  tokens_per_sec_total/cvs    50400 tokens/s     info                info: recorded
SKIPPED  threshold  scaling_efficiency/*        -                  info                missing (optional)
RECORD   threshold  step_time_seconds/cvs       21.25 s            info                info: recorded
RECORD   threshold  step_time_mean_ms/cvs       21250 ms           info                info: recorded
RECORD   threshold  step_time_p50_ms/cvs        21250 ms           info                info: recorded
RECORD   threshold  step_time_p95_ms/cvs        38125 ms           info                info: recorded
PASS     threshold  final_loss/cvs              11 nats            <= 15               11 <= 15
PASS     threshold  loss_decreased/cvs          1 bool             >= 1                1 >= 1
SKIPPED  threshold  eval_loss/cvs               -                  info                missing (optional)
SKIPPED  threshold  steps_to_target/*           -                  info                missing (optional)
SKIPPED  threshold  time_to_target/*            -                  info                missing (optional)
RECORD   threshold  steps/max                   1 steps                                no threshold
RECORD   threshold  nonfinite/total             1 lines                                no threshold

17 verdicts: 3 pass, 3 fail, 7 record, 4 skipped
--- stderr
