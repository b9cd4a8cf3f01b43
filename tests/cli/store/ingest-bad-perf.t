# a malformed perf.csv line: file, line and column named, nothing written
args: store ingest --store $STORE --cluster c tests/fixtures/ingest/perf-bad.csv
exit: 2
--- stdout
--- stderr
tests/fixtures/ingest/perf-bad.csv:3: column "performance": expected a number, got "fast"
