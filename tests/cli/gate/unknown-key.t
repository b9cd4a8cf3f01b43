# A misspelt key
args: gate --thresholds tests/data/gate/unknown-key.json tests/data/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
tests/data/gate/unknown-key.json: $.cells.default.tflops_per_gpu.tolerence: unknown key (expected one of: kind, value, tolerance, optional, statistic)
