# --scale is NODESxGPUS
args: store ingest --store $ASSAY_BUILD_DIR/cli-store-unused.db --scale 16 tests/fixtures/ingest/perf.csv
exit: 2
--- stdout
--- stderr
assay store: --scale '16': expected NODESxGPUS such as 2x8
