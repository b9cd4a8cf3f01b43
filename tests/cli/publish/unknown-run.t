# publish names the first run id the store does not hold
setup: store ingest --store $STORE tests/fixtures/ingest/rccl_ci-history.jsonl
args: publish --store $STORE --suite quickstart --out /nonexistent/pub run-a run-b
exit: 2
--- stdout
--- stderr
$STORE: no run 'run-a'
