# unknown formats
args: store ingest --store $ASSAY_BUILD_DIR/cli-store-unused.db --input-format xls tests/fixtures/ingest/perf.csv
exit: 2
--- stdout
--- stderr
assay store: unknown format 'xls' (see 'assay help store')
