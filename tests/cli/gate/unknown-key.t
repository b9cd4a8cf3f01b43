# A misspelt key
args: gate --thresholds tests/fixtures/gate/unknown-key.json tests/fixtures/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/unknown-key.json: $.cells.default.tflops_per_gpu.tolerence: unknown key (expected one of: kind, value, tolerance, optional, statistic)
