# every format of the fixtures into a fresh store (--force: the store survives reruns)
args: store ingest --store $ASSAY_BUILD_DIR/cli-store-ingest-ok.db --force --cluster mi300x-a --scale 1x8 --precision bf16 tests/fixtures/ingest/perf.csv tests/fixtures/ingest/perf_entry_super.json tests/fixtures/ingest/multiple_results.csv tests/fixtures/ingest/rccl_ci.jsonl tests/fixtures/ingest/nccl_tests.json
exit: 0
--- stdout-grep
^tests/fixtures/ingest/perf.csv: madengine-csv, 3 rows, run [0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}$
^tests/fixtures/ingest/perf_entry_super.json: madengine-super, 2 rows, run 
^tests/fixtures/ingest/multiple_results.csv: multiple-results, 4 rows, run 
^tests/fixtures/ingest/rccl_ci.jsonl: rccl-ci, 13 rows, run 
^tests/fixtures/ingest/nccl_tests.json: nccl-tests, 11 rows, run 
--- stderr
