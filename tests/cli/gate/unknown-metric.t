# A metric no row has and no parser produces is a config error (exit 2) with
# the file and JSON path, not "missing" or SKIPPED (issue 15; 53f999a exited 1)
args: gate --thresholds tests/fixtures/gate/thresholds-misspelt.json tests/fixtures/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/thresholds-misspelt.json: $.cells.default.tflops_per_gpux: unknown metric "tflops_per_gpux": no row has it and no parser produces it (a misspelt name?)
