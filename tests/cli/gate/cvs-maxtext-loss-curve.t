# MaxText's loss curve (ROCm/cvs dddd914, maxtext_parsing.py, sample_loss_curve and
# evaluate_loss_decreasing, the same sampler as Megatron's): with sample_every 10, steps 0, 10, 20 and
# the last, 29; CVS's slope over them is -0.1461959638874137 (decreasing).
args: gate --spec tests/fixtures/gate/spec-cvs-loss.json --thresholds tests/fixtures/gate/cvs/mi355x_jaxmaxtext_llama-3.1-8b_distributed_threshold.json --combo NNODES=2,STEPS=30,PRECISION=BF16,BATCH=4,GBS=256,SEQLEN=8192 tests/fixtures/training/maxtext-llama3.1-8b-bf16.log
exit: 0
--- stdout-grep
^PASS +loss-curve +lm_loss/slope +-0\.14619596 nats/step +< 0 +slope -0\.146196 < 0 over 4 samples \(steps 0\.\.29\)$
--- stderr
