# within needs a tolerance
args: gate --thresholds tests/fixtures/gate/within-no-tolerance.json tests/fixtures/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/within-no-tolerance.json: $.cells.default.tokens_per_gpu.tolerance: missing (expected a number >= 0)
