# CVS's container cluster file with lifetime persistent (ROCm/cvs dddd914 cvs/input/cluster_file/README.md): each node's case is a `docker exec` in the container the file names, the variables and the label by name (docs/ssh.md)
args: run --dry-run --out /runs tests/fixtures/cli/run/ssh-cluster-container-persistent.json
exit: 0
--- stdout
[1/1] c1
  ssh to gpu01 gpu02 (one process per node; NNODES=2, NODE_RANK 0..1, MASTER_ADDR=10.0.0.1, MASTER_PORT=29500; label assay-RUN_ID-c1-a1-nN): true
  node 0 runs (node N: name ...-nN): docker exec --env NODE_RANK --env NNODES --env MASTER_ADDR --env MASTER_PORT --env ASSAY_SSH_LABEL cvs_container true
  logs: /runs/RUN_ID/c1/stdout.log, /runs/RUN_ID/c1/stderr.log; per node /runs/RUN_ID/c1/nodes/HOST.out, .err
  results: /runs/RUN_ID/c1/r.ndjson (parser rows)
--- stderr
