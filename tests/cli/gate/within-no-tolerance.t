# within needs a tolerance
args: gate --thresholds tests/data/gate/within-no-tolerance.json tests/data/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
tests/data/gate/within-no-tolerance.json: $.cells.default.tokens_per_gpu.tolerance: missing (expected a number >= 0)
