# a run id the store does not hold is a usage error naming the store
setup: store ingest --store $STORE tests/fixtures/ingest/rccl_ci-history.jsonl
args: report --store $STORE no-such-run
exit: 2
--- stdout
--- stderr
$STORE: no run 'no-such-run'
