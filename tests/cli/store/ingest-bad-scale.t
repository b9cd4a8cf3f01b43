# --scale follows the scale grammar (docs/ingest.md): 15 GPUs do not split over 2 nodes
args: store ingest --store $STORE --scale 2N/15GPU tests/fixtures/ingest/perf.csv
exit: 2
--- stdout
--- stderr
assay store: --scale '2N/15GPU': expected NODESxGPUS (2x8), NODESN/TOTALGPU (2N/16GPU) or a GPU count
