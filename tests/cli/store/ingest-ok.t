# every format of the fixtures into a fresh store: every row is new (a rerun finding them
# present is tests/e2e/store/t-reingest.sh)
args: store ingest --store $STORE --force --cluster mi300x-a --scale 1x8 --precision bf16 tests/fixtures/ingest/perf.csv tests/fixtures/ingest/perf_entry_super.json tests/fixtures/ingest/multiple_results.csv tests/fixtures/ingest/rccl_ci.jsonl tests/fixtures/ingest/nccl_tests.json
exit: 0
--- stdout-grep
^tests/fixtures/ingest/perf.csv: madengine-csv, 3 new, 0 already present, run 
^tests/fixtures/ingest/perf_entry_super.json: madengine-super, 2 new, 0 already present, run 
^tests/fixtures/ingest/multiple_results.csv: multiple-results, 4 new, 0 already present, run 
^tests/fixtures/ingest/rccl_ci.jsonl: rccl-ci, 13 new, 0 already present, 1 fail record skipped, run 
^tests/fixtures/ingest/nccl_tests.json: nccl-tests, 11 new, 0 already present, run 
--- stderr
