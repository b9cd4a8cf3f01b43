# unknown formats
args: store ingest --store $STORE --input-format xls tests/fixtures/ingest/perf.csv
exit: 2
--- stdout
--- stderr
assay store: unknown format 'xls' (see 'assay help store')
