# MaxText's default dictionary (ROCm/cvs dddd914, jaxmaxtext_training_lib.py, _TRAINING_ERR_PATTERNS):
# "signal 11" is a segfault.
args: gate --thresholds tests/fixtures/gate/cvs/mi355x_jaxmaxtext_llama-3.1-8b_distributed_threshold.json --combo NNODES=2,STEPS=30,PRECISION=BF16,BATCH=4,GBS=256,SEQLEN=8192 tests/fixtures/training/maxtext-signal11.log
exit: 3
--- stdout-grep
^FAIL +run +errors .*segfault \(cvs maxtext\) at line 50: .*signal 11
--- stderr
