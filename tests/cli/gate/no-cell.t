# Enforcing, a run without a cell is a config error
args: gate --thresholds tests/fixtures/gate/thresholds-no-default.json --combo MBS=4,GBS=8,PRECISION=BF16 tests/fixtures/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/thresholds-no-default.json: $.cells: no cell for combo "MBS=4,GBS=8,PRECISION=BF16" (cells: MBS=1,GBS=8,PRECISION=BF16, MBS=2,GBS=16,PRECISION=FP8)
