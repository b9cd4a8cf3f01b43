# --dry-run of an ssh suite: the hosts, the per-node variables, the label and where each node's logs go; nothing connects
args: run --dry-run tests/fixtures/cli/run/ssh-dry-run.json
exit: 0
--- stdout
[1/1] c1
  ssh to gpu01 gpu02 (one process per node; NNODES=2, NODE_RANK 0..1, MASTER_ADDR=gpu01, MASTER_PORT=29600; label assay-RUN_ID-c1-a1-nN): true
  logs: out/RUN_ID/c1/stdout.log, out/RUN_ID/c1/stderr.log; per node out/RUN_ID/c1/nodes/HOST.out, .err
  results: out/RUN_ID/c1/r.ndjson (parser rows)
--- stderr
