# A config's training.error_patterns replaces MaxText's defaults wholesale (ROCm/cvs dddd914,
# jaxmaxtext_training_lib.py): the shipped mi355x config's "segfault" has no "signal 11", so the
# same log as cvs-maxtext-signal11.t passes.
args: gate --thresholds tests/fixtures/gate/cvs/mi355x_jaxmaxtext_llama-3.1-8b_distributed_threshold.json --combo NNODES=2,STEPS=30,PRECISION=BF16,BATCH=4,GBS=256,SEQLEN=8192 --error-patterns tests/fixtures/gate/cvs/mi355x_jaxmaxtext_llama-3.1-8b_distributed.json tests/fixtures/training/maxtext-signal11.log
exit: 0
--- stdout-grep
^18 verdicts: 6 pass, 0 fail, 9 record, 3 skipped$
--- stderr
