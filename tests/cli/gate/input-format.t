# --input-format names the logs' format (it was --format before)
args: gate --input-format primus --thresholds tests/fixtures/gate/thresholds.json --combo MBS=1,GBS=8,PRECISION=BF16 --log tests/fixtures/training/primus-complete.log
exit: 1
--- stdout-grep
^FAIL +threshold +tflops_per_gpu/steady_mean +508\.75 TFLOP/s/GPU
^22 verdicts: 4 pass, 3 fail, 15 record, 0 skipped$
--- stderr
