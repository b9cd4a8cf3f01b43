# CVS's loss-curve rule (ROCm/cvs dddd914, cvs/lib/training/megatron/utils/loss_curve.py):
# the first and last step with a loss are always sampled, besides every
# sample_every-th step and the milestones; under 2 points SKIPPED; PASS only
# when slope < max_slope. With sample_every 10, as CVS's shipped configs set it.
args: gate --spec tests/fixtures/gate/spec-cvs-loss.json --log tests/fixtures/training/megatron-skipped.log
exit: 0
--- stdout
status   gate        metric         value     spec                                                  message
PASS     run         completion     40 step   iteration N/N, torchrun marker or Megatron exit line  completed (iteration N/N)
PASS     run         finite         0 values  no NaN or Inf                                         every value is finite
PASS     run         steps          4 steps   >= 1                                                  4 steps, the first 2 excluded as warm-up
SKIPPED  loss-curve  lm_loss/slope  -         < 0                                                   0 sampled steps with a finite lm loss: 2 needed for a slope

4 verdicts: 3 pass, 0 fail, 0 record, 1 skipped
--- stderr
