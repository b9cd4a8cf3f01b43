# perf_entry_super.json errors name the JSON path
args: store ingest --store $STORE --cluster c --scale 1x8 tests/fixtures/ingest/perf_entry_super-bad.json
exit: 2
--- stdout
--- stderr
tests/fixtures/ingest/perf_entry_super-bad.json: $[1].performance: expected a number, got [...]
