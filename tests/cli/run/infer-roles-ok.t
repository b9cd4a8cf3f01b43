# Role servers in a dry run: each role's server.log watched by every case
args: run --dry-run tests/fixtures/cli/run/infer-roles-ok.json
exit: 0
--- stdout
[1/1] c1
  ssh to gpu01 (one process per node; NNODES=1, NODE_RANK 0..0, MASTER_ADDR=gpu01, MASTER_PORT=29500; label assay-RUN_ID-c1-a1-nN): true
  logs: out/RUN_ID/c1/stdout.log, out/RUN_ID/c1/stderr.log; per node out/RUN_ID/c1/nodes/HOST.out, .err
  watch: out/RUN_ID/server-prefill/server.log, out/RUN_ID/server-decode/server.log, out/RUN_ID/server-router/server.log
  results: out/RUN_ID/c1/stdout.log (parser sglang)
--- stderr
