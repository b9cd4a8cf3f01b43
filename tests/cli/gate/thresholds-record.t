# Enforcement off: every verdict is RECORD, exit 0
args: gate --thresholds tests/fixtures/gate/thresholds-record.json --combo MBS=1,GBS=8,PRECISION=BF16 tests/fixtures/gate/primus-complete.ndjson
exit: 0
--- stdout-grep
^RECORD +threshold +tflops_per_gpu/steady_mean +508\.75 TFLOP/s/GPU +>= 520 +not enforced: would fail \(508\.75 < 520\)$
^RECORD +threshold +tokens_per_gpu/running_avg +7139\.3 tokens/s/GPU +>= 7000 +not enforced: would pass \(7139\.3 >= 7000\)$
^RECORD +threshold +checkpoint_save_ms/max +- +<= 30000 +missing \(not enforced\)$
^19 verdicts: 0 pass, 0 fail, 19 record, 0 skipped$
--- stderr
