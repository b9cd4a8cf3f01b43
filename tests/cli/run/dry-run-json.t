# --dry-run --json prints the plan as JSON (schema assay.dry-run/1, docs/run.md);
# it printed text before. It starts and writes nothing.
args: run --dry-run --json --revision r1 tests/fixtures/cli/run/train.json
exit: 0
--- stdout
{
  "schema": "assay.dry-run/1",
  "suite": "train-smoke",
  "revision": "r1",
  "run_dir": "out/RUN_ID",
  "store": "assay.db",
  "cases": [
    {
      "index": 1,
      "case_id": "fp8-mbs4",
      "runnable": true,
      "plan": ["PRECISION=FP8 NCCL_DEBUG=WARN bash examples/train.sh --micro-batch-size 4 --global-batch-size 128", "  logs: out/RUN_ID/fp8-mbs4/stdout.log, out/RUN_ID/fp8-mbs4/stderr.log; timeout 3600 s (then SIGTERM, SIGKILL after 5 s)", "  watch: /tmp/train-RUN_ID/node0.log", "  results: out/RUN_ID/fp8-mbs4/rows.ndjson (parser rows)"]
    },
    {
      "index": 2,
      "case_id": "bf16-mbs2",
      "runnable": true,
      "plan": ["PRECISION=BF16 NCCL_DEBUG=WARN bash examples/train.sh --micro-batch-size 2 --global-batch-size 64", "  logs: out/RUN_ID/bf16-mbs2/stdout.log, out/RUN_ID/bf16-mbs2/stderr.log; timeout 3600 s (then SIGTERM, SIGKILL after 5 s)", "  watch: /tmp/train-RUN_ID/node0.log", "  results: out/RUN_ID/bf16-mbs2/rows.ndjson (parser rows)"]
    }
  ]
}
--- stderr
