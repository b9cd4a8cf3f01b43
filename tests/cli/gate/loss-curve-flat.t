# CVS's loss-curve rule (ROCm/cvs dddd914, cvs/lib/training/megatron/utils/loss_curve.py):
# the first and last step with a loss are always sampled, besides every
# sample_every-th step and the milestones; under 2 points SKIPPED; PASS only
# when slope < max_slope. With sample_every 10, as CVS's shipped configs set it.
args: gate --spec tests/fixtures/gate/spec-cvs-loss.json --log tests/fixtures/training/megatron-flat-loss.log
exit: 1
--- stdout
status   gate        metric         value        spec                                                  message
PASS     run         completion     10 step      iteration N/N, torchrun marker or Megatron exit line  completed (iteration N/N, after training is done (line 25))
PASS     run         finite         0 values     no NaN or Inf                                         every value is finite
PASS     run         steps          10 steps     >= 1                                                  10 steps, the first 2 excluded as warm-up
FAIL     loss-curve  lm_loss/slope  0 nats/step  < 0                                                   slope 0 >= 0 over 2 samples (steps 1..10)

4 verdicts: 3 pass, 1 fail, 0 record, 0 skipped
--- stderr
