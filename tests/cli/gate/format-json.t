# --format json is what --json is short for: one verdict object per line
args: gate --format json --thresholds tests/fixtures/gate/thresholds.json tests/fixtures/gate/primus-complete.ndjson
exit: 0
--- stdout-grep
^\{"gate":"threshold","message":"508\.75 >= 500","metric":"tflops_per_gpu/steady_mean",.*"status":"PASS",
--- stderr
