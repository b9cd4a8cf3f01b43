# A --combo without a cell of its own is a config error naming the file and
# JSON path, not silently the "default" cell (issue 15; 53f999a exited 0)
args: gate --thresholds tests/fixtures/gate/thresholds.json --combo MBS=2,GBS=8,PRECISION=FP8 tests/fixtures/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/thresholds.json: $.cells: no cell for combo "MBS=2,GBS=8,PRECISION=FP8" (cells: default, MBS=1,GBS=8,PRECISION=BF16)
