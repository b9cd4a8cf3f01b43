# MaxText as CVS reads it (ROCm/cvs dddd914, cvs/lib/training/jaxmaxtext/utils/maxtext_parsing.py, parse_training_log): means over the last 10 steps
# with performance numbers, step-time percentiles, final loss, loss decreased, eval loss; the unchanged
# shipped threshold file, its sweep-name cell; complete at "completed step: STEPS-1"; a metric without a
# value is skipped (N/A), info records (cvs/tests/training/jaxmaxtext/_common.py, metric()).
args: gate --thresholds tests/fixtures/gate/cvs/mi355x_jaxmaxtext_llama-3.1-8b_distributed_threshold.json --combo NNODES=2,STEPS=30,PRECISION=BF16,BATCH=4,GBS=256,SEQLEN=8192 tests/fixtures/training/maxtext-llama3.1-8b-bf16.log
exit: 0
--- stdout
status   gate       metric                      value                   spec                message
PASS     run        completion                  29 step                 completed step: 29  completed (last step 29)
PASS     run        nonfinite/total             0                       0                   none: lines with TFLOP/s/device: or Tokens/s/device: NaN or Inf
PASS     threshold  tflops_per_sec_per_gpu/cvs  436.214 TFLOP/s/GPU     >= 400              436.214 >= 400
PASS     threshold  tokens_per_sec_per_gpu/cvs  12950.815 tokens/s/GPU  >= 12000            12950.8 >= 12000
RECORD   threshold  tokens_per_sec_total/cvs    207213.03 tokens/s      info                info: recorded
SKIPPED  threshold  scaling_efficiency/*        -                       info                missing (optional)
RECORD   threshold  step_time_seconds/cvs       2.531 s                 info                info: recorded
RECORD   threshold  step_time_mean_ms/cvs       3822.3 ms               info                info: recorded
RECORD   threshold  step_time_p50_ms/cvs        2531 ms                 info                info: recorded
RECORD   threshold  step_time_p95_ms/cvs        2551 ms                 info                info: recorded
PASS     threshold  final_loss/cvs              7.873 nats              <= 15               7.873 <= 15
PASS     threshold  loss_decreased/cvs          1 bool                  >= 1                1 >= 1
RECORD   threshold  eval_loss/cvs               7.733 nats              info                info: recorded
SKIPPED  threshold  steps_to_target/*           -                       info                missing (optional)
SKIPPED  threshold  time_to_target/*            -                       info                missing (optional)
RECORD   threshold  steps/max                   29 steps                                    no threshold
RECORD   threshold  steps/config                30 steps                                    no threshold
RECORD   threshold  nonfinite/total             0 lines                                     no threshold

18 verdicts: 6 pass, 0 fail, 9 record, 3 skipped
--- stderr
