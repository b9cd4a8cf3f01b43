# The combo's cell: FAIL below a minimum, above a maximum, and for a missing metric
args: gate --thresholds tests/fixtures/gate/thresholds.json --combo precision=bf16,mbs=1,gbs=8 tests/fixtures/gate/primus-complete.ndjson
exit: 1
--- stdout-grep
^status +gate +metric +value +spec +message$
^FAIL +threshold +tflops_per_gpu/steady_mean +508\.75 TFLOP/s/GPU +>= 520 +508\.75 < 520$
^PASS +threshold +tokens_per_gpu/running_avg +7139\.3 tokens/s/GPU +>= 7000 +7139\.3 >= 7000$
^FAIL +threshold +lm_loss/last +10\.1 nats +<= 10 +10\.1 > 10$
^FAIL +threshold +checkpoint_save_ms/max +- +<= 30000 +missing: no row has this metric$
^RECORD +threshold +tflops_per_gpu/running_avg +509 TFLOP/s/GPU +no threshold$
^19 verdicts: 1 pass, 3 fail, 15 record, 0 skipped$
--- stderr
