# RESULTS files need a thresholds file
args: gate tests/fixtures/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
assay gate: RESULTS files need --thresholds FILE
