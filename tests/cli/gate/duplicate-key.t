# A duplicate JSON key
args: gate --thresholds tests/fixtures/gate/duplicate-key.json tests/fixtures/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/duplicate-key.json:1:78: $.cells.default.tflops_per_gpu.value: duplicate key "value"
