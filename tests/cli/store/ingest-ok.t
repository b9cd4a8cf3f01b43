# every format of the fixtures into a store that survives reruns: the first run stores
# every row, a rerun finds them present (rows without an identity are stored again: --force)
args: store ingest --store $ASSAY_BUILD_DIR/cli-store-ingest-ok.db --force --cluster mi300x-a --scale 1x8 --precision bf16 tests/fixtures/ingest/perf.csv tests/fixtures/ingest/perf_entry_super.json tests/fixtures/ingest/multiple_results.csv tests/fixtures/ingest/rccl_ci.jsonl tests/fixtures/ingest/nccl_tests.json
exit: 0
--- stdout-grep
^tests/fixtures/ingest/perf.csv: madengine-csv, (3 new, 0 already present, run |0 new, 3 already present)
^tests/fixtures/ingest/perf_entry_super.json: madengine-super, (2 new, 0 already present, run |0 new, 2 already present)
^tests/fixtures/ingest/multiple_results.csv: multiple-results, (4 new, 0 already present, run |0 new, 4 already present)
^tests/fixtures/ingest/rccl_ci.jsonl: rccl-ci, (13 new, 0 already present, run |0 new, 13 already present)
^tests/fixtures/ingest/nccl_tests.json: nccl-tests, (11 new, 0 already present, run |0 new, 11 already present)
--- stderr
