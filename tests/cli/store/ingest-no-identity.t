# every series needs cluster, scale and precision: the message says how to give them
args: store ingest --store $STORE tests/fixtures/ingest/nccl_tests.json
exit: 2
--- stdout
--- stderr
tests/fixtures/ingest/nccl_tests.json: row 1: time_us/mean: series has no "cluster" (cluster, scale and precision identify every stored series); give it with --cluster, --scale, --precision or --set FIELD=VALUE
