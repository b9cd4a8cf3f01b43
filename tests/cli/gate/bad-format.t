# --format names what is printed: table or json
args: gate --format xml --thresholds tests/fixtures/gate/thresholds.json tests/fixtures/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
assay gate: --format: expected table or json, got 'xml'
