# A threshold kind that is not min, max, within or info
args: gate --thresholds tests/fixtures/gate/bad-kind.json tests/fixtures/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/bad-kind.json: $.cells.default.tflops_per_gpu.kind: expected one of "min", "max", "within", "info", got "above"
