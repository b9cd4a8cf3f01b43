# --log gives rows for --thresholds too, after the run-health verdicts
args: gate --thresholds tests/fixtures/gate/thresholds.json --combo MBS=1,GBS=8,PRECISION=BF16 --log tests/fixtures/training/primus-complete.log
exit: 1
--- stdout-grep
^PASS +run +completion +6 step +iteration N/N, torchrun marker or Megatron exit line +completed \(iteration N/N and torchrun marker\)$
^PASS +run +finite +0 values +no NaN or Inf +every value is finite$
^PASS +run +steps +6 steps +>= 1 +6 steps, the first 2 excluded as warm-up$
^FAIL +threshold +tflops_per_gpu/steady_mean +508\.75 TFLOP/s/GPU
^22 verdicts: 4 pass, 3 fail, 15 record, 0 skipped$
--- stderr
