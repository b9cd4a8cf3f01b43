# A log against a spec: run health, loss curve, convergence, scaling (tokens derived)
args: gate --spec tests/fixtures/gate/spec.json --log tests/fixtures/training/megatron-basic.log --seq-len 4096 --world-size 16
exit: 0
--- stdout
status   gate         metric              value                  spec                                                  message
PASS     run          completion          10 step                iteration N/N, torchrun marker or Megatron exit line  completed (iteration N/N, after training is done (line 25))
PASS     run          finite              0 values               no NaN or Inf                                         every value is finite
PASS     run          steps               10 steps               >= 1                                                  10 steps, the first 2 excluded as warm-up
PASS     loss-curve   lm_loss/slope       -0.26452055 nats/step  < 0                                                   slope -0.264521 < 0 over 6 samples (steps 1..10)
PASS     convergence  lm_loss/final       8.6 nats               <= 9                                                  final loss 8.6 at step 10 reached target 9
RECORD   convergence  steps_to_target     8 step                                                                       first reached 9 at step 8
RECORD   convergence  time_to_target      18.02 s                                                                      18.02 s of training to step 8
RECORD   scaling      total_tokens_per_s  262176.78 tokens/s                                                           16386 tokens/s/GPU x 16 GPUs
PASS     scaling      scaling_efficiency  93.634564 %            >= 90%                                                93.63% = 262177 tokens/s / (2 / 1 nodes) / 140000 tokens/s

9 verdicts: 6 pass, 0 fail, 3 record, 0 skipped
--- stderr
