# --format, the old spelling of ingest's --input-format, still works, with a
# one-line deprecation note
args: store ingest --store $STORE --format xls tests/fixtures/ingest/perf.csv
exit: 2
--- stdout
--- stderr
assay store: --format is deprecated; use --input-format
assay store: unknown format 'xls' (see 'assay help store')
