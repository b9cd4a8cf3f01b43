# A threshold kind that is not min, max, within or info
args: gate --thresholds tests/data/gate/bad-kind.json tests/data/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
tests/data/gate/bad-kind.json: $.cells.default.tflops_per_gpu.kind: expected one of "min", "max", "within", "info", got "above"
