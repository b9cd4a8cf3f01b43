# A duplicate JSON key
args: gate --thresholds tests/data/gate/duplicate-key.json tests/data/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
tests/data/gate/duplicate-key.json:1:78: $.cells.default.tflops_per_gpu.value: duplicate key "value"
