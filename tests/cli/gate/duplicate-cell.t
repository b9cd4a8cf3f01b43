# Two keys for the same combo
args: gate --thresholds tests/fixtures/gate/duplicate-cell.json tests/fixtures/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/duplicate-cell.json: $.cells["PRECISION=bf16,MBS=1,GBS=8"]: duplicate cell: the same combo as $.cells["MBS=1,GBS=8,PRECISION=BF16"]
