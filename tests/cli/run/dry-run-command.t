# --dry-run prints each case's command, environment, logs and results with the
# placeholders filled (RUN_ID stands for the run id); it starts and writes nothing
args: run --dry-run tests/fixtures/cli/run/train.json
exit: 0
--- stdout
[1/2] fp8-mbs4
  PRECISION=FP8 NCCL_DEBUG=WARN bash examples/train.sh --micro-batch-size 4 --global-batch-size 128
  logs: out/RUN_ID/fp8-mbs4/stdout.log, out/RUN_ID/fp8-mbs4/stderr.log; timeout 3600 s (then SIGTERM, SIGKILL after 5 s)
  watch: /tmp/train-RUN_ID/node0.log
  results: out/RUN_ID/fp8-mbs4/rows.ndjson (parser rows)
[2/2] bf16-mbs2
  PRECISION=BF16 NCCL_DEBUG=WARN bash examples/train.sh --micro-batch-size 2 --global-batch-size 64
  logs: out/RUN_ID/bf16-mbs2/stdout.log, out/RUN_ID/bf16-mbs2/stderr.log; timeout 3600 s (then SIGTERM, SIGKILL after 5 s)
  watch: /tmp/train-RUN_ID/node0.log
  results: out/RUN_ID/bf16-mbs2/rows.ndjson (parser rows)
--- stderr
